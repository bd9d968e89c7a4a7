package dev.servebench.telemetry.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrometheusTextErrorsTest {

    private static final String GOOD_LINE = "# TYPE ok counter\nok_total 1\n";

    /** Each case is put on line 3, after two good lines, so the reported line number is checked too. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            no value                  | m                          | 2  | the sample has no value
            no value after labels     | m{a="1"}                   | 9  | the sample has no value
            Java float suffix         | m 1.0d                     | 3  | invalid value "1.0d"
            hex value                 | m 0x10                     | 3  | invalid value "0x10"
            words as value            | m lots                     | 3  | invalid value "lots"
            unterminated label value  | m{a="1} 2                  | 5  | unterminated quoted string
            unterminated label set    | m{a="1" 2                  | 9  | expected ',' or '}' after a label
            bad escape                | m{a="x\\ty"} 1             | 7  | invalid escape "\\t"
            label without =           | m{a "1"} 1                 | 5  | expected '=' after label name "a"
            label value not quoted    | m{a=1} 1                   | 5  | expected '"' to open the value of label "a"
            duplicate label           | m{a="1",a="2"} 1           | 9  | label "a" appears twice
            label name with colon     | m{a:b="1"} 1               | 4  | expected '=' after label name "a"
            empty label name          | m{,a="1"} 1                | 3  | expected a label name
            no metric name            | {a="1"} 1                  | 8  | the sample has no metric name
            bad metric name           | 9m 1                       | 1  | expected a metric name
            junk after the timestamp  | m 1 2 3                    | 7  | unexpected text after the timestamp
            fractional classic time   | m 1 1700000000.5           | 5  | must be integer milliseconds
            huge timestamp            | m 1 99999999999999999999   | 5  | out of range
            name glued to value       | m-1 2                      | 2  | expected a blank before the value
            TYPE without type         | # TYPE m                   | 3  | # TYPE without a type
            TYPE with unknown type    | # TYPE m countr            | 10 | unknown metric type "countr"
            HELP without name         | # HELP                     | 3  | # HELP without a metric name
            HELP with bad name        | # HELP 9x docs             | 8  | invalid metric name "9x"
            """)
    void malformedLineIsRejectedWithItsPosition(String label, String line, int column, String problem) {
        assertThatThrownBy(() -> PrometheusText.parse(GOOD_LINE + line + "\nafter 1\n"))
                .as(label)
                .isInstanceOf(PrometheusFormatException.class)
                .hasMessageStartingWith("line 3, column " + column + ": ")
                .hasMessageContaining(problem)
                .hasMessageEndingWith(": " + line)
                .satisfies(e -> {
                    PrometheusFormatException p = (PrometheusFormatException) e;
                    assertThat(p.lineNumber()).isEqualTo(3);
                    assertThat(p.column()).isEqualTo(column);
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            text after EOF       | # EOF\\nm 1\\n        | 4 | text after "# EOF"
            EOF then blank lines | m 1\\n# EOF\\n\\n\\n    | 0 |
            """)
    void eofEndsAnOpenMetricsScrape(String label, String tail, int badLine, String problem) {
        String text = GOOD_LINE + tail.replace("\\n", "\n");
        if (badLine == 0) {
            assertThat(PrometheusText.parse(text)).hasSize(2);
        } else {
            assertThatThrownBy(() -> PrometheusText.parse(text)).as(label)
                    .hasMessageStartingWith("line " + badLine + ", column 1: " + problem);
        }
    }
}

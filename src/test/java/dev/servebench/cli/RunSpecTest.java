package dev.servebench.cli;

import static dev.servebench.cli.CliRun.servebench;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.client.Backend;
import dev.servebench.metric.GoodputSlo;
import dev.servebench.metric.InputTokenSource;
import dev.servebench.metric.TokenSource;
import dev.servebench.spec.EmbeddedTargetSpec;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.PromptFormat;
import dev.servebench.spec.PromptTokenIds;
import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.spec.ShareGptDatasetSpec;
import dev.servebench.spec.SpecReader;
import dev.servebench.spec.UrlTargetSpec;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Issue 17: {@code servebench run}'s flags are a spec without expectations. Flags → spec → YAML
 * ({@code --print-spec}) → {@link SpecReader} gives the same spec, so a run can become a spec file.
 */
class RunSpecTest {

    private static final String[] EVERY_MEASURING_FLAG = {"--base-url", "http://127.0.0.1:30000/prefix",
            "--backend", "sglang-oai", "--model", "glm-5", "--random-input-len", "256", "--random-output-len", "128",
            "--random-range-ratio", "0.5", "--random-vocab-span", "500", "--random-token-id-base", "10",
            "--num-prompts", "7", "--max-concurrency", "1,8", "--request-rate", "inf,4.5", "--burstiness", "0.5",
            "--seed", "3", "--warmup-requests", "2", "--disable-ignore-eos", "--prompt-format", "ids",
            "--extra-request-body", "{\"temperature\": 0, \"stop\": [\"x\", \"y\"], \"top_p\": 0.9, \"tags\": {\"a\": null}}",
            "--token-source", "chunks", "--input-token-source", "usage", "--goodput", "ttft:300 e2el:2000.5",
            "--stall-timeout", "30", "--request-timeout", "0.3", "--max-duration", "90", "--min-success-rate", "0.5",
            "--client-threads", "2", "--tokenizer", "models/tokenizer.json", "--tag", "nightly"};

    /** The spec {@code servebench run ARGS} measures, without running it. */
    private static PerformanceSpec spec(String... args) {
        CommandLine cli = Main.commandLine();
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        RunCommand run = (RunCommand) parsed.subcommand().commandSpec().userObject();
        return run.settings().spec();
    }

    private static String[] run(String... flags) {
        String[] args = new String[flags.length + 1];
        args[0] = "run";
        System.arraycopy(flags, 0, args, 1, flags.length);
        return args;
    }

    /** The spec read back from {@code --print-spec}; its source is the printed text, the built one's too. */
    private static PerformanceSpec printedAndReadBack(String... flags) {
        String[] args = new String[flags.length + 2];
        args[0] = "run";
        args[1] = "--print-spec";
        System.arraycopy(flags, 0, args, 2, flags.length);
        CliRun printed = servebench(args);
        assertThat(printed.exit()).as(printed.err()).isZero();
        return SpecReader.parse(printed.out(), RunCommand.COMMAND_LINE);
    }

    @Test
    void everyMeasuringFlagSurvivesTheRoundTripThroughYaml() throws Exception {
        PerformanceSpec built = spec(run(EVERY_MEASURING_FLAG));

        assertThat(printedAndReadBack(EVERY_MEASURING_FLAG)).isEqualTo(built);
        // And the flags landed where the spec keeps them, not just somewhere equal on both sides.
        assertThat(built.target()).isEqualTo(new UrlTargetSpec(URI.create("http://127.0.0.1:30000/prefix"),
                Backend.SGLANG_OAI, Optional.of("glm-5")));
        assertThat(built.workload().dataset()).isEqualTo(new RandomDatasetSpec(256, 128, 0.5,
                Optional.of(new PromptTokenIds(10, 500))));
        assertThat(built.workload().prompts().at(built.sweep().points().getFirst())).isEqualTo(7);
        assertThat(built.workload().seed()).isEqualTo(3);
        assertThat(built.workload().ignoreEos()).isFalse();
        assertThat(built.workload().promptFormat()).isEqualTo(PromptFormat.IDS);
        assertThat(built.workload().tokenizer()).contains(Path.of("models/tokenizer.json").toAbsolutePath());
        assertThat(built.workload().extraBody()).isEqualTo(new ObjectMapper().readTree(
                "{\"temperature\": 0, \"stop\": [\"x\", \"y\"], \"top_p\": 0.9, \"tags\": {\"a\": null}}"));
        assertThat(built.sweep().points()).hasToString("[concurrency=1, concurrency=8, concurrency=1,rate=4.5,"
                + " concurrency=8,rate=4.5]");
        assertThat(built.sweep().burstiness()).isEqualTo(0.5);
        assertThat(built.sweep().maxDuration()).contains(Duration.ofSeconds(90));
        assertThat(built.warmup()).isEqualTo(2);
        assertThat(built.validity().minCompleted()).isEqualTo(0.5);
        assertThat(built.metrics().tokenSource()).isEqualTo(TokenSource.CHUNK_COUNT);
        assertThat(built.metrics().inputTokenSource()).isEqualTo(InputTokenSource.SERVER_USAGE);
        assertThat(built.metrics().goodput()).contains(new GoodputSlo(OptionalDouble.of(300), OptionalDouble.empty(),
                OptionalDouble.of(2000.5)));
        assertThat(built.client().threads()).hasValue(2);
        assertThat(built.client().stallTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(built.client().requestTimeout()).contains(Duration.ofMillis(300));
        assertThat(built.expectations()).isEmpty();
    }

    @Test
    void theDefaultsOfAnEmbeddedRunSurviveTooAndStayUnfixedWhereTheServerDecides() {
        PerformanceSpec built = spec(run("--max-concurrency", "4"));

        assertThat(printedAndReadBack("--max-concurrency", "4")).isEqualTo(built);
        assertThat(built.target()).isInstanceOf(EmbeddedTargetSpec.class);
        assertThat(((EmbeddedTargetSpec) built.target()).slots()).isEqualTo(4);
        assertThat(built.workload().dataset()).isEqualTo(new RandomDatasetSpec(RunCommand.EMBEDDED_INPUT_LEN,
                RunCommand.EMBEDDED_OUTPUT_LEN, 0.0, Optional.empty()));
        // Machine-dependent or learnt from the server: left open, so the printed spec means the same elsewhere.
        assertThat(built.client().threads()).isEmpty();
        assertThat(built.sweep().maxDuration()).isEmpty();
        assertThat(built.metrics().goodput()).isEmpty();
    }

    @Test
    void aShareGptRunNamesItsFileAbsolutelySoThePrintedSpecWorksFromAnyDirectory() {
        String[] flags = {"--base-url", "http://127.0.0.1:1", "--dataset-name", "sharegpt", "--dataset-path",
                "fixtures/sharegpt-sample.json", "--sharegpt-output-len", "16"};
        PerformanceSpec built = spec(run(flags));

        assertThat(printedAndReadBack(flags)).isEqualTo(built);
        assertThat(built.workload().dataset()).isEqualTo(new ShareGptDatasetSpec(
                Path.of("fixtures/sharegpt-sample.json").toAbsolutePath(), OptionalInt.of(16)));
    }

    @Test
    void printedSpecIsPlainYamlWithUnitsAUserCanRead() {
        CliRun printed = servebench("run", "--print-spec", "--base-url", "http://127.0.0.1:1", "--max-duration", "90",
                "--request-timeout", "0.25", "--request-rate", "inf,8");

        assertThat(printed.exit()).as(printed.err()).isZero();
        assertThat(printed.out()).contains("name: run", "kind: url", "max_duration: 90s", "request_timeout: 250ms",
                "stall_timeout: 10m", "- inf", "- 8.0").doesNotContain("expect");
        assertThat(printed.err()).isEmpty();
    }

    @Test
    void flagsASpecCannotHoldAreRefusedWithTheFlagNamed() {
        assertThat(servebench("run", "--print-spec", "--dataset-name", "sharegpt", "--dataset-path", "x.json",
                "--prompt-format", "ids").err()).contains("--prompt-format", "only random prompts can be sent as token ids");
        assertThat(servebench("run", "--print-spec", "--max-concurrency", "4,4").err())
                .contains("--max-concurrency", "lists each concurrency and rate once");
        assertThat(servebench("run", "--print-spec", "--stall-timeout", "0").err())
                .contains("--stall-timeout", "must be a finite number > 0");
        assertThat(servebench("run", "--print-spec", "--base-url", "ftp://host").err())
                .contains("--base-url", "http(s)://host");
    }

    @Test
    void theSpecsSourceHashIsThatOfItsYaml() {
        PerformanceSpec built = spec(run("--base-url", "http://127.0.0.1:1"));
        PerformanceSpec other = spec(run("--base-url", "http://127.0.0.1:1", "--seed", "7"));

        assertThat(built.source().file()).isEqualTo(Path.of(RunCommand.COMMAND_LINE));
        assertThat(built.source()).isEqualTo(printedAndReadBack("--base-url", "http://127.0.0.1:1").source());
        assertThat(other.source().sha256()).isNotEqualTo(built.source().sha256());
        assertThat(List.of(built.name(), other.name())).containsOnly("run");
    }
}

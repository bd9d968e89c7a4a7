package dev.servebench.report.html;

import dev.servebench.results.RunVerdictsJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportRendererTest {

    private static final Pattern CHART_DIV = Pattern.compile("data-chart=\"([^\"]*)\"");
    private static final String DATA_START = "<script type=\"application/json\" id=\"report-data\">";

    @Test
    void everySectionAppearsOnceInPageOrderWithAHeading() {
        String html = HtmlReportRenderer.render(ReportModels.complete("demo"));
        int previous = -1;
        for (String id : HtmlReportRenderer.SECTION_IDS) {
            String open = "<section id=\"" + id + "\">\n<h2>";
            assertThat(html.indexOf(open)).as(id).isGreaterThan(previous).isEqualTo(html.lastIndexOf(open));
            previous = html.indexOf(open);
        }
        assertThat(html.indexOf("<footer>")).isGreaterThan(previous);
    }

    @Test
    void aVerdictThatWasNotJudgedIsCountedAndShownAsSuchNotAsAPass() {
        String html = HtmlReportRenderer.render(ReportModels.complete("demo"));

        assertThat(html).contains("2 verdicts: 0 pass, 1 fail, 0 inconclusive, 1 not_judged, 0 invalid")
                .contains("<tr class=\"outcome-not_judged\"><td>not_judged</td>")
                .contains("request_goodput @ concurrency=32 was not measured: no goodput SLOs were given");
    }

    @Test
    void throughputSeriesAreSeparateAndNamedByMetricIdAndUnit() throws Exception {
        JsonNode chart = data(HtmlReportRenderer.render(ReportModels.complete("demo"))).path("charts").path("throughput");
        List<String> names = new ArrayList<>();
        chart.path("series").forEach(series -> names.add(series.path("name").asText()));
        assertThat(names).containsExactly("output_throughput (tok/s)",
                "input_throughput (tok/s)", "total_throughput (tok/s)", "peak_output_throughput (tok/s)");
        assertThat(chart.path("xAxis").path("data").toString()).isEqualTo("[\"8\",\"32\"]");
        assertThat(chart.path("xAxis").path("name").asText()).isEqualTo("concurrency");
        assertThat(chart.path("series").get(0).path("data").toString()).isEqualTo("[300.0,622.0]");
        assertThat(chart.path("series").get(2).path("data").toString()).isEqualTo("[1100.0,3740.0]");
        JsonNode peak = chart.path("series").get(3);
        assertThat(peak.path("type").asText()).isEqualTo("scatter");
        assertThat(peak.path("data").toString()).isEqualTo("[630.0,1306.0]");
        assertThat(peak.path("label").path("formatter").asText()).isEqualTo("peak {c}");
    }

    @Test
    void timelineDrawsTheSustainedRateAsALineAndMarksTheBusiestSecond() throws Exception {
        JsonNode chart = data(HtmlReportRenderer.render(ReportModels.complete("demo"))).path("charts").path("timeline-2");
        JsonNode bars = chart.path("series").get(0);
        assertThat(chart.path("title").path("text").asText()).isEqualTo("concurrency=32");
        assertThat(chart.path("title").path("subtext").asText()).isEqualTo("records of repeat 2 of 3 (median"
                + " output_throughput)\nconcurrency-32.r2.records.jsonl; 1-s buckets from the first successful start");
        assertThat(bars.path("data")).hasSize(20);
        JsonNode sustained = bars.path("markLine").path("data").get(0);
        assertThat(sustained.path("yAxis").asDouble()).isEqualTo(622.0);
        assertThat(sustained.path("label").path("formatter").asText())
                .isEqualTo("sustained output_throughput (median) 622 tok/s");
        assertThat(bars.path("markPoint").path("data").get(0).path("type").asText()).isEqualTo("max");
    }

    @Test
    void everyChartDivHasItsOptionsInlinedAndNoneIsLeftOver() throws Exception {
        String html = HtmlReportRenderer.render(ReportModels.complete("demo"));
        List<String> divs = chartNames(html);
        List<String> inlined = new ArrayList<>();
        data(html).path("charts").fieldNames().forEachRemaining(inlined::add);
        assertThat(divs).containsExactlyElementsOf(inlined).containsExactly("throughput", "timeline-1", "timeline-2",
                "latency-ttft", "latency-tpot", "latency-itl", "latency-e2e-latency", "ttft-cdf", "itl-cdf", "trend-1");
        JsonNode trend = data(html).path("charts").path("trend-1").path("series").get(0);
        assertThat(trend.path("markLine").path("data").get(0).path("label").path("formatter").asText())
                .isEqualTo("-14.5 %\nc0ffee5..c0ffee6");
    }

    @Test
    void aHostileSpecNameOrReasonCannotBreakOutOfMarkupOrData() throws Exception {
        String hostile = "x</script><b>bold</b><!--";
        ReportModel complete = ReportModels.complete(hostile);
        ReportModel model = new ReportModel(hostile, complete.runDirectory(), complete.generatedAt(),
                complete.environment(), Input.found(List.of(new VerdictRow("v", "expectation", "",
                RunVerdictsJson.Outcome.INVALID, "</script><script>alert(1)</script>"))), complete.points(),
                complete.kernels(), complete.trends());
        String html = HtmlReportRenderer.render(model);
        assertThat(html).doesNotContain("<b>bold").doesNotContain("alert(1)</script>")
                .contains("x&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;&lt;!--");
        assertThat(count(html, "<script")).isEqualTo(4).isEqualTo(count(html, "</script>"));
        assertThat(data(html).path("spec").asText()).isEqualTo(hostile);
    }

    @Test
    void missingInputsKeepTheirSectionsAndSayWhy() {
        String html = HtmlReportRenderer.render(ReportModels.withoutOptionalInputs("demo"));
        for (String id : HtmlReportRenderer.SECTION_IDS) {
            assertThat(html).contains("<section id=\"" + id + "\">");
        }
        assertThat(html).contains("<p class=\"missing\">no environment.json in X</p>",
                "<p class=\"missing\">no verdicts.json in X</p>",
                "<p class=\"missing\">no kernels run found under Y</p>",
                "<p class=\"missing\">no history for fingerprint 0123456789abcdef in Z</p>",
                "<p class=\"missing\">concurrency=8: no concurrency=8 records</p>",
                "no load point has its records files");
        assertThat(chartNames(html)).containsExactly("throughput", "latency-ttft", "latency-tpot", "latency-itl",
                "latency-e2e-latency");
    }

    @Test
    void theReportLoadsNothingFromElsewhere() {
        String html = HtmlReportRenderer.render(ReportModels.complete("demo"));
        assertThat(html).doesNotContainIgnoringCase("<script src").doesNotContainIgnoringCase("<link");
        int library = html.indexOf("<script>\n/* Apache ECharts ");
        int libraryEnd = html.indexOf("</script>", library);
        assertThat(libraryEnd - library).as("the inlined library").isGreaterThan(900_000);
        String outsideLibrary = html.substring(0, library) + html.substring(libraryEnd);
        assertThat(outsideLibrary).doesNotContain("http://").doesNotContain("https://")
                .doesNotContainIgnoringCase("<img").doesNotContainIgnoringCase("<iframe")
                .doesNotContainIgnoringCase("@import").doesNotContainIgnoringCase("url(")
                .contains("Apache ECharts 5.3.1 (Apache License 2.0");
        assertThat(html.substring(library, libraryEnd)).contains("Copyright 2017-2022 The Apache Software Foundation");
    }

    @Test
    void pointsWithARateAreNamedInFullOnTheAxis() throws Exception {
        ReportModel complete = ReportModels.complete("demo");
        LoadPointView rated = new LoadPointView("concurrency=8,rate=4", true, 32, 1,
                complete.points().getFirst().metrics(), Input.missing("none"));
        ReportModel model = new ReportModel("demo", "r", "t", complete.environment(), complete.verdicts(),
                List.of(complete.points().getFirst(), rated), complete.kernels(), complete.trends());
        JsonNode axis = data(HtmlReportRenderer.render(model)).path("charts").path("throughput").path("xAxis");
        assertThat(axis.path("data").toString()).isEqualTo("[\"concurrency=8\",\"concurrency=8,rate=4\"]");
        assertThat(axis.path("name").asText()).isEqualTo("load point");
    }

    @Test
    void theSpeedOfLightTableShowsMeasuredAgainstTheBoundWithItsLimitingTerm() {
        ReportModel complete = ReportModels.complete("demo");
        assertThat(HtmlReportRenderer.render(complete)).doesNotContain("Speed of light");
        // As measurements.json holds it: GLM-5 at batch 1 (bound 480 tok/s) measured at 11 tok/s, 91 ms mean ITL.
        var deployment = new dev.servebench.roofline.Deployment(dev.servebench.roofline.KnownShapes.glm5Nvfp4Tp8(),
                "model card", dev.servebench.roofline.HardwareFigures.of(
                        dev.servebench.roofline.KnownShapes.rtxPro6000x8Pcie()));
        var bound = new dev.servebench.roofline.PointBound.Bounded(dev.servebench.roofline.DecodeBound.of(
                deployment.model(), dev.servebench.roofline.KnownShapes.rtxPro6000x8Pcie(), 1, 319));
        var json = dev.servebench.results.RooflineJson.of(deployment, dev.servebench.roofline.PointRoofline
                .of(bound, java.util.OptionalDouble.of(11), java.util.OptionalDouble.of(91)));
        LoadPointView first = complete.points().getFirst();
        LoadPointView bounded = new LoadPointView(first.point(), true, 32, 1, first.metrics(), Input.missing("none"),
                java.util.Optional.of(RooflineView.of(json)), java.util.Optional.of(
                        new RooflineView.Energy(12_300, java.util.OptionalDouble.of(0.5),
                                java.util.OptionalDouble.of(0.47))));
        LoadPointView unbounded = new LoadPointView("concurrency=8,rate=4", true, 32, 1, first.metrics(),
                Input.missing("none"), java.util.Optional.of(new RooflineView.Unbounded("no cap")),
                java.util.Optional.empty());
        ReportModel model = new ReportModel("demo", "r", "t", complete.environment(), complete.verdicts(),
                List.of(bounded, unbounded), complete.kernels(), complete.trends());

        String html = HtmlReportRenderer.render(model);

        assertThat(html).contains("<h3>Speed of light</h3>", "<td>480</td><td>2.29 %</td>",
                "<td>2.08</td><td>2.29 %</td><td>communication</td><td>12.3</td><td>0.500</td><td>47 %</td>",
                "<td>no bound: no cap</td><td>no GPU samples</td>");
    }

    static JsonNode data(String html) throws Exception {
        int start = html.indexOf(DATA_START) + DATA_START.length();
        return new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)));
    }

    static List<String> chartNames(String html) {
        List<String> names = new ArrayList<>();
        Matcher matcher = CHART_DIV.matcher(html);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}

package dev.servebench.report.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Renders a {@link ReportModel} as one self-contained HTML page: styles, the chart library, the page
 * script and all data are inlined, and the page loads nothing from anywhere. Pure apart from reading its own
 * resources from the classpath.
 */
public final class HtmlReportRenderer {

    /** Section ids in page order; links, tests and headless checks rely on them. */
    public static final List<String> SECTION_IDS = List.of("environment", "verdicts", "throughput", "timeline",
            "latency", "distributions", "kernels", "trends");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> HEADINGS = List.of("Environment", "Verdicts", "Throughput",
            "Output token timeline", "Latency percentiles", "TTFT and ITL distributions", "Kernel results", "Trends");

    private HtmlReportRenderer() {
    }

    public static String render(ReportModel model) {
        EchartsBundle echarts = EchartsBundle.load();
        ChartSet charts = new ChartSet();
        PerformanceSections performance = new PerformanceSections(model.points(), charts);
        String sections = ContextSections.environment(model.environment())
                + ContextSections.verdicts(model.verdicts())
                + performance.throughput() + performance.timeline() + performance.latency()
                + performance.distributions()
                + ContextSections.kernels(model.kernels())
                + new ContextSections(charts).trends(model.trends());
        ObjectNode data = JSON.createObjectNode();
        data.put("spec", model.spec());
        data.set("charts", charts.toJson());

        StringBuilder page = new StringBuilder(echarts.script().length() + 256 * 1024);
        page.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>servebench report: ").append(Html.escape(model.spec())).append("</title>\n")
                .append("<style>\n").append(resource("report.css")).append("</style>\n")
                .append("<script>\n").append(resource("render-check.js")).append("</script>\n")
                .append("<script>\n/* Apache ECharts ").append(echarts.version())
                .append(", inlined from the npm package (webjar) dist/echarts.min.js; Apache License 2.0.\n")
                .append(echarts.notice().replace("*/", "* /")).append("*/\n")
                .append(echarts.script()).append("\n</script>\n</head>\n<body>\n");
        page.append("<header>\n<h1>servebench report: ").append(Html.escape(model.spec())).append("</h1>\n")
                .append(Html.paragraph("meta", "run " + model.runDirectory() + " · generated " + model.generatedAt()))
                .append("<nav>");
        for (int i = 0; i < SECTION_IDS.size(); i++) {
            page.append("<a href=\"#").append(SECTION_IDS.get(i)).append("\">").append(HEADINGS.get(i)).append("</a>");
        }
        page.append("</nav>\n</header>\n<main>\n").append(sections).append("</main>\n");
        page.append("<footer>\n").append(Html.paragraph("meta", "servebench HTML report of " + model.runDirectory()
                + ", generated " + model.generatedAt() + ". " + charts.size() + " charts, drawn by Apache ECharts "
                + echarts.version() + " (Apache License 2.0; Copyright The Apache Software Foundation), inlined"
                + " with its licence header and NOTICE. This page loads nothing from the network."))
                .append("</footer>\n");
        page.append("<script type=\"application/json\" id=\"report-data\">").append(scriptSafeJson(data))
                .append("</script>\n<script>\n").append(resource("report.js")).append("</script>\n</body>\n</html>\n");
        return page.toString();
    }

    /**
     * JSON that cannot end its script element: every {@code <} becomes {@code \u003c}, which is the same string
     * to a JSON parser but can never spell {@code </script} or {@code <!--}.
     */
    static String scriptSafeJson(ObjectNode data) {
        try {
            return JSON.writeValueAsString(data).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("report data is not serialisable: " + e.getOriginalMessage(), e);
        }
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReportRenderer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the servebench jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

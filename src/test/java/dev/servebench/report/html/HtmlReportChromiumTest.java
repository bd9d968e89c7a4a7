package dev.servebench.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.results.AtomicFiles;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the report of a synthetic run in headless Chromium: the page's own render check must report no
 * error and every chart drawn, and a screenshot must show a page (target/html-report/report.png, for a person
 * to look at).
 */
class HtmlReportChromiumTest {

    static final Path OUTPUT = Path.of("target", "html-report");
    static final int WIDTH = 1400;
    static final int HEIGHT = 7000;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern BODY = Pattern.compile("<body([^>]*)>");
    private static final Pattern ATTRIBUTE = Pattern.compile("([a-z-]+)=\"([^\"]*)\"");
    private static final Pattern CHART_DIV = Pattern.compile("<div[^>]*data-chart=\"([^\"]*)\"[^>]*>");

    static HeadlessChromium chromium;
    static Path report;
    static int charts;

    @BeforeAll
    static void writeReport(@TempDir Path directory) throws IOException {
        Optional<HeadlessChromium> found = HeadlessChromium.find(Files.createDirectories(OUTPUT));
        if (found.isEmpty()) {
            Assumptions.abort("chromium not installed: neither /usr/bin/chromium nor chromium on PATH"
                    + " (bin/install-chromium or apt-get install chromium; .ci/run runs it)");
        }
        chromium = found.get();
        Path run = RunDirectoryFixture.write(directory);
        ReportModel model = ReportLoader.load(new ReportLoader.Sources(run, Optional.empty(),
                directory.resolve("kernels"), directory.resolve("history")), "2026-12-02T16:00:00Z");
        String html = HtmlReportRenderer.render(model);
        charts = HtmlReportRendererTest.chartNames(html).size();
        int trendCharts = ((Input.Found<TrendView>) model.trends()).value().series().size();
        assertThat(charts).as("charts of the fixture: throughput, 3 timelines, 4 latency, 2 CDFs and the trends")
                .isEqualTo(1 + RunDirectoryFixture.CONCURRENCIES.length + 4 + 2 + trendCharts);
        report = OUTPUT.resolve("report.html").toAbsolutePath();
        AtomicFiles.write(report, html);
    }

    @Test
    void pageRendersEveryChartWithoutAnError() throws Exception {
        String dom = chromium.run(TIMEOUT, "--dump-dom", "--virtual-time-budget=15000", report.toUri().toString())
                .stdout();
        // The inlined library's code spells "<body>" too: the element is the first one after </head>.
        Matcher body = BODY.matcher(dom);
        assertThat(body.find(Math.max(0, dom.indexOf("</head>")))).as("a <body> in the dumped DOM").isTrue();
        Map<String, String> attributes = new LinkedHashMap<>();
        Matcher attribute = ATTRIBUTE.matcher(body.group(1));
        while (attribute.find()) {
            attributes.put(attribute.group(1), attribute.group(2));
        }
        assertThat(attributes).as("render check on <body>").containsEntry("data-render-errors", "")
                .containsEntry("data-render-status", "ok").containsEntry("data-charts", Integer.toString(charts));
        for (String id : HtmlReportRenderer.SECTION_IDS) {
            assertThat(dom).contains("<section id=\"" + id + "\">");
        }
        Matcher div = CHART_DIV.matcher(dom);
        int drawn = 0;
        while (div.find()) {
            assertThat(div.group()).as("chart " + div.group(1)).contains("data-rendered=\"true\"");
            drawn++;
        }
        assertThat(drawn).isEqualTo(charts);
    }

    @Test
    void screenshotShowsAPageNotABlank() throws Exception {
        Path png = OUTPUT.resolve("report.png").toAbsolutePath();
        Files.deleteIfExists(png);
        chromium.run(TIMEOUT, "--screenshot=" + png, "--window-size=" + WIDTH + "," + HEIGHT,
                "--virtual-time-budget=15000", report.toUri().toString());
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as(png + " decodes as an image").isNotNull();
        assertThat(image.getWidth()).isEqualTo(WIDTH);
        assertThat(image.getHeight()).isEqualTo(HEIGHT);
        Set<Integer> colours = new HashSet<>();
        int saturated = 0;
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                int r = rgb >> 16, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) {
                    saturated++;
                }
            }
        }
        assertThat(colours).as("distinct colours").hasSizeGreaterThan(64);
        assertThat(saturated).as("coloured pixels (chart series, not just text)").isGreaterThan(2000);
    }
}

package dev.servebench.suite;

import dev.servebench.results.PointMeasurement;

import dev.servebench.spec.Expectation;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.server.CacheReset;
import dev.servebench.verdict.ValidityCheck;
import io.qameta.allure.Allure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Allure labels and attachments of the perf suite. Allure is optional at run time: outside a test
 * lifecycle (e.g. under the JUnit test kit) its calls only log, so the suite never depends on it.
 */
final class SuiteAllure {

    /** Records JSONL above this size are not attached (they stay in the run directory). */
    static final long MAX_ATTACHMENT_BYTES = 32L << 20;

    private SuiteAllure() {
    }

    static void pointLabels(PerformanceSpec spec, LoadPointKey key) {
        Allure.label("spec", spec.name());
        Allure.label("target", spec.target().kind());
        Allure.label("loadPoint", key.toString());
        Allure.parameter("load point", key.toString());
        Allure.parameter("prompts", spec.prompts(key));
        Allure.parameter("repeats", spec.repeats());
        Allure.parameter("warmup requests", spec.warmup());
    }

    static void expectationLabels(Expectation expectation) {
        Allure.label("metric", expectation.metric().id());
        Allure.label("loadPoint", expectation.point().toString());
        Allure.parameter("source", expectation.position().toString());
    }

    static void attachPoint(PointMeasurement measurement, List<ValidityCheck> validity, CacheReset reset,
            String logExcerpt) throws IOException {
        Allure.step("measure " + measurement.key() + " (" + measurement.repeats().size() + " repeat(s), "
                + measurement.requested() + " requests, cache reset: " + reset + ")");
        for (Path file : measurement.files()) {
            if (Files.size(file) > MAX_ATTACHMENT_BYTES) {
                attachText(file.getFileName() + " (not attached)", "larger than " + MAX_ATTACHMENT_BYTES
                        + " bytes; see " + file.toAbsolutePath());
                continue;
            }
            boolean json = file.getFileName().toString().endsWith(".json");
            try (InputStream in = Files.newInputStream(file)) {
                Allure.addAttachment(file.getFileName().toString(), json ? "application/json" : "application/x-ndjson",
                        in, json ? ".json" : ".jsonl");
            }
        }
        attachText("validity", validity.stream().map(c -> (c.holds() ? "ok    " : "FAIL  ") + c.name() + ": "
                + c.explanation()).collect(Collectors.joining("\n")));
        if (!logExcerpt.isBlank()) {
            attachText("server log (last 200 lines)", logExcerpt);
        }
    }

    static void attachServerSide(ServerSideObserver.Observation observation) {
        attachText("server counters vs client", observation.crossCheckNote());
        if (!observation.gpuNote().isBlank()) {
            attachText("GPU telemetry", observation.gpuNote());
        }
    }

    static void attachText(String name, String text) {
        Allure.addAttachment(name, "text/plain", text, ".txt");
    }
}

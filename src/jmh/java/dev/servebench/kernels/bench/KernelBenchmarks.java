package dev.servebench.kernels.bench;

import dev.servebench.results.AtomicFiles;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.results.JmhResult;
import dev.servebench.kernels.results.JmhResults;
import dev.servebench.kernels.results.KernelMeasurementsJson;
import dev.servebench.kernels.results.KernelFigures;
import dev.servebench.kernels.results.KernelReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import dev.servebench.results.RunVerdictsJson;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.SpecException;
import dev.servebench.spec.SpecReader;
import dev.servebench.verdict.KernelExpectationReport;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the kernel suite: {@code --mode smoke|full} [{@code --threads N}] [{@code --output DIR}]
 * [{@code --only REGEX}] [{@code --param NAME=V1,V2}] (replaces a parameter's values in every step that
 * has it) [{@code --spec FILE}]. Writes {@code jmh.json} (JMH's own format, all steps merged),
 * {@code figures.json} and {@code figures.md} (derived GB/s, GFLOP/s, algbw/busbw, ratios),
 * {@code kernel-measurements.json} (the figures kernel expectations read, with every iteration per fork) and
 * prints the tables, then the spec's kernel expectations judged on this run. Exit code 1 when a step failed
 * to run; a missed expectation is reported here and fails the perf suite's test of it, not this run.
 */
public final class KernelBenchmarks {

    private KernelBenchmarks() {
    }

    public static void main(String[] args) throws IOException {
        try {
            run(args);
        } catch (IllegalArgumentException | IllegalStateException | SpecException e) {
            // Bad options, a bad spec, a missing or foreign library: no stack trace through exec-maven-plugin.
            System.err.println("servebench kernels: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void run(String[] args) throws IOException {
        String mode = "smoke";
        int threads = Runtime.getRuntime().availableProcessors();
        Path output = null;
        Path spec = null;
        Pattern only = null;
        java.util.Map<String, String[]> overrides = new java.util.LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--mode" -> mode = require(value, "--mode");
                case "--threads" -> threads = Integer.parseInt(require(value, "--threads"));
                case "--output" -> output = Path.of(require(value, "--output"));
                case "--spec" -> spec = require(value, "--spec").isBlank() ? null : Path.of(value);
                case "--only" -> only = Pattern.compile(require(value, "--only"));
                case "--param" -> {
                    String[] parts = require(value, "--param").split("=", 2);
                    if (parts.length != 2 || parts[1].isEmpty()) {
                        throw new IllegalArgumentException("--param " + value + "; expected NAME=V1,V2");
                    }
                    overrides.put(parts[0], parts[1].split(","));
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; expected --mode smoke|full, --threads N, --output DIR, --only REGEX, --param NAME=V1,V2,"
                        + " --spec FILE");
            }
            i++;
        }
        KernelPlan plan = KernelPlan.forMode(mode, threads);
        // Read first: a bad spec stops the run before minutes of benchmarks, with all its errors.
        List<KernelExpectation> expectations = spec == null ? List.of() : SpecReader.read(spec).kernelExpectations();
        Optional<Path> configured = BenchLibrary.configured(System.getProperty(KernelLibrary.LIBRARY_PROPERTY));
        if (output == null) {
            String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
            output = Path.of("reports", "kernels", mode + "-" + stamp);
        }
        Files.createDirectories(output);
        KernelLibrary library = configured.map(KernelLibrary::load).orElseGet(KernelLibrary::load);
        String environment = "kernel library " + library.path() + " (" + library.implementation() + ", "
                + (configured.isPresent() ? "from -D" + KernelLibrary.LIBRARY_PROPERTY : "this build's") + "), "
                + Runtime.getRuntime().availableProcessors() + " CPUs, threads=" + threads + ", JDK "
                + Runtime.version() + ", mode " + mode;
        System.out.println("# servebench kernel suite: " + environment);

        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode merged = json.createArrayNode();
        List<String> failures = new ArrayList<>();
        int index = 0;
        for (KernelPlan.Step step : plan.steps()) {
            index++;
            if (only != null && !only.matcher(step.benchmarkClass()).find()) {
                continue;
            }
            step.params().replaceAll((name, values) -> overrides.getOrDefault(name, values));
            Path stepFile = output.resolve(String.format("jmh-%02d.json", index));
            try {
                new Runner(options(plan, step, stepFile, configured).build()).run();
                json.readTree(stepFile.toFile()).forEach(merged::add);
            } catch (RunnerException | IOException e) {
                failures.add(step.benchmarkClass() + " " + describe(step) + ": " + e.getMessage());
            }
        }
        AtomicFiles.write(output.resolve("jmh.json"), json.writeValueAsString(merged));
        List<JmhResult> results = JmhResults.parse(merged, output.resolve("jmh.json").toString());
        KernelReport report = KernelFigures.derive(results);
        Path measurementsFile = output.resolve(KernelMeasurementsJson.FILE_NAME);
        KernelMeasurementsJson.write(measurementsFile, environment, KernelMeasurementsJson.values(results));
        String markdown = "# Kernel benchmarks\n\n" + environment + "\n\n" + report.toMarkdown()
                + verdicts(spec, expectations, KernelMeasurementsJson.read(measurementsFile));
        AtomicFiles.write(output.resolve("figures.json"), json.writeValueAsString(report));
        AtomicFiles.write(output.resolve("figures.md"), markdown);
        System.out.println();
        System.out.println(markdown);
        System.out.println("results: " + output.toAbsolutePath());
        if (!failures.isEmpty()) {
            failures.forEach(f -> System.err.println("step failed: " + f));
            System.exit(1);
        }
    }

    /**
     * The spec's kernel lines judged on this run, one line each: the same judgement the perf suite reports as
     * tests (where a miss fails the build); here it is only printed.
     */
    private static String verdicts(Path spec, List<KernelExpectation> expectations, KernelMeasurements measured) {
        if (spec == null) {
            return "";
        }
        StringBuilder text = new StringBuilder("\n### Kernel expectations of " + spec + "\n\n");
        if (expectations.isEmpty()) {
            text.append("The spec has no kernels: lines.\n");
        }
        for (KernelExpectation expectation : expectations) {
            RunVerdictsJson.Entry entry = KernelExpectationReport.judge(expectation, measured).entry();
            text.append(String.format(Locale.ROOT, "- %s %s: %s%n", switch (entry.outcome()) {
                case PASS -> "pass";
                case FAIL -> "**FAIL**";
                case NOT_JUDGED -> "**NOT JUDGED**";
                case INVALID -> "**INVALID**";
            }, entry.name(), entry.summary()));
        }
        return text.toString();
    }

    private static ChainedOptionsBuilder options(KernelPlan plan, KernelPlan.Step step, Path resultFile,
            Optional<Path> library) {
        KernelPlan.Timing timing = plan.timing();
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(step.benchmarkClass()) + "\\.")
                .forks(timing.forks())
                .warmupIterations(timing.warmupIterations())
                .warmupTime(TimeValue.seconds(timing.warmupSeconds()))
                .measurementIterations(timing.measurementIterations())
                .measurementTime(TimeValue.seconds(timing.measurementSeconds()))
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(resultFile.toString())
                .jvmArgsAppend(BenchLibrary.forkArguments(library).toArray(String[]::new));
        step.params().forEach(options::param);
        return options;
    }

    private static String describe(KernelPlan.Step step) {
        StringBuilder text = new StringBuilder();
        step.params().forEach((name, values) -> text.append(name).append('=').append(String.join(",", values))
                .append(' '));
        return text.toString().trim();
    }

    private static String require(String value, String flag) {
        if (value == null) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return value;
    }
}

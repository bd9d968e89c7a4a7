package dev.servebench.kernels.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.results.JmhResult;
import dev.servebench.kernels.results.JmhResults;
import dev.servebench.kernels.results.KernelFigures;
import dev.servebench.kernels.results.KernelMeasurementsJson;
import dev.servebench.kernels.results.KernelReport;
import dev.servebench.results.AtomicFiles;
import dev.servebench.spec.KernelMeasurements;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the kernel suite ({@link KernelPlan}) with JMH, one forked JVM per step and fork, on the class path
 * this JVM runs on (the jar, or Maven's class path). Writes {@code jmh.json} (JMH's own format, all steps
 * merged), {@code figures.json} and {@code figures.md} (derived GB/s, GFLOP/s, algbw/busbw, ratios) and
 * {@code kernel-measurements.json} (the figures kernel expectations read, with every iteration per fork),
 * and prints the tables. Lines of a spec left undecided by the run get their figures re-measured first
 * ({@link KernelRemeasure}): the files then hold every fork, the extra ones included. {@code servebench kernels run}, {@code servebench check} and the perf suite all
 * run the suite through here.
 */
public final class KernelBenchmarks {

    /** JMH's own output of every step and re-measured fork, beside the run's results. */
    public static final String JMH_LOG = "jmh-output.log";

    private KernelBenchmarks() {
    }

    /**
     * What a run left.
     *
     * @param output      its directory
     * @param environment the library, CPUs, threads, JDK and mode, as the first line of figures.md
     * @param failures    the steps JMH could not run, each with its parameters and the reason
     */
    public record KernelRun(Path output, String environment, List<String> failures) {
        public KernelRun {
            Objects.requireNonNull(output, "output");
            Objects.requireNonNull(environment, "environment");
            failures = List.copyOf(failures);
        }

        /** Every step ran (a missed expectation is no failure of the run: its test fails). */
        public boolean complete() {
            return failures.isEmpty();
        }
    }

    /**
     * Runs every step of the plan, re-measures what {@code undecided} names within the settings' budget
     * ({@link KernelRemeasure}) and writes the run's files.
     *
     * @param afterTables appended to figures.md and the printed tables: e.g. a spec's kernel lines judged on
     *                    the figures measured, re-measured ones included
     * @param undecided   the figures of lines that the measurements given leave undecided (none: no re-measuring)
     * @throws IllegalStateException the kernel library cannot be found or loaded (before any benchmark)
     */
    public static KernelRun run(KernelRunSettings settings, Function<KernelMeasurements, String> afterTables,
            Function<KernelMeasurements, List<KernelMeasurements.Value>> undecided, PrintStream out)
            throws IOException {
        KernelPlan plan = KernelPlan.forMode(settings.mode(), settings.threads());
        Path output = settings.output();
        Files.createDirectories(output);
        KernelLibrary library = settings.library().map(KernelLibrary::load).orElseGet(KernelLibrary::load);
        String environment = "kernel library " + library.path() + " (" + library.implementation() + ", "
                + (settings.library().isPresent() ? "from -D" + KernelLibrary.LIBRARY_PROPERTY : "this build's")
                + "), " + Runtime.getRuntime().availableProcessors() + " CPUs, threads=" + settings.threads()
                + ", JDK " + Runtime.version() + ", mode " + settings.mode().label();
        out.println("# servebench kernel suite: " + environment);
        out.println("# JMH's full output: " + output.resolve(JMH_LOG).toAbsolutePath());
        try (PrintStream jmhLog = new PrintStream(Files.newOutputStream(output.resolve(JMH_LOG)), true,
                StandardCharsets.UTF_8)) {
            OutputFormat format = new ConsoleLines(
                    OutputFormatFactory.createFormatInstance(jmhLog, VerboseMode.NORMAL), out);
            return measure(settings, plan, environment, format, afterTables, undecided, out);
        }
    }

    private static KernelRun measure(KernelRunSettings settings, KernelPlan plan, String environment,
            OutputFormat format, Function<KernelMeasurements, String> afterTables,
            Function<KernelMeasurements, List<KernelMeasurements.Value>> undecided, PrintStream out)
            throws IOException {
        Path output = settings.output();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode merged = json.createArrayNode();
        List<String> failures = new ArrayList<>();
        int index = 0;
        for (KernelPlan.Step step : plan.steps()) {
            index++;
            if (settings.only().isPresent() && !settings.only().get().matcher(step.benchmarkClass()).find()) {
                continue;
            }
            step.params().replaceAll((name, values) -> Optional.ofNullable(settings.params().get(name))
                    .map(replaced -> replaced.toArray(String[]::new)).orElse(values));
            Path stepFile = output.resolve(String.format("jmh-%02d.json", index));
            try {
                new Runner(options(plan, step, stepFile, settings.library()).build(), format).run();
                json.readTree(stepFile.toFile()).forEach(merged::add);
            } catch (RunnerException | IOException e) {
                failures.add(step.benchmarkClass() + " " + describe(step) + ": " + e.getMessage() + " (JMH's output: "
                        + output.resolve(JMH_LOG) + ")");
            }
        }
        Path measurementsFile = output.resolve(KernelMeasurementsJson.FILE_NAME);
        KernelRemeasure.RunFiles files = run -> {
            AtomicFiles.write(output.resolve("jmh.json"), json.writeValueAsString(run));
            KernelMeasurementsJson.write(measurementsFile, environment, KernelMeasurementsJson.values(
                    JmhResults.parse(run, output.resolve("jmh.json").toString())));
        };
        files.write(merged);
        int[] forkNumber = {0};
        KernelRemeasure.Forks forks = point -> {
            Path forkFile = output.resolve(String.format("jmh-remeasured-%02d.json", ++forkNumber[0]));
            ChainedOptionsBuilder options = jmhOptions(point.benchmarkClass(), remeasureTiming(plan.timing()),
                    forkFile, settings.library());
            point.params().forEach(options::param);
            new Runner(options.build(), format).run();
            return json.readTree(forkFile.toFile());
        };
        List<String> remeasured = merged.isEmpty() ? List.of() : KernelRemeasure.run(settings.remeasure(), merged,
                measurementsFile.toString(), undecided, forks, files, System::nanoTime, out);
        List<JmhResult> results = JmhResults.parse(merged, output.resolve("jmh.json").toString());
        KernelReport report = KernelFigures.derive(results);
        String markdown = "# Kernel benchmarks\n\n" + environment + "\n\n" + report.toMarkdown()
                + (remeasured.isEmpty() ? "" : "\n### Re-measured (lines whose interval straddled their limit)\n\n"
                        + String.join("\n", remeasured) + "\n")
                + afterTables.apply(KernelMeasurementsJson.read(measurementsFile));
        AtomicFiles.write(output.resolve("figures.json"), json.writeValueAsString(report));
        AtomicFiles.write(output.resolve("figures.md"), markdown);
        out.println();
        out.println(markdown);
        out.println("results: " + output.toAbsolutePath());
        failures.forEach(f -> out.println("step failed: " + f));
        out.flush();
        return new KernelRun(output, environment, failures);
    }

    /**
     * An extra fork of a re-measured point: one fork with the plan's warm-up and at least 5 measurement
     * iterations (more samples for the JVM start and set-up each fork pays).
     */
    static KernelPlan.Timing remeasureTiming(KernelPlan.Timing plan) {
        return new KernelPlan.Timing(1, plan.warmupIterations(), plan.warmupSeconds(),
                Math.max(plan.measurementIterations(), 5), plan.measurementSeconds());
    }

    private static ChainedOptionsBuilder options(KernelPlan plan, KernelPlan.Step step, Path resultFile,
            Optional<Path> library) {
        ChainedOptionsBuilder options = jmhOptions(step.benchmarkClass(), plan.timing(), resultFile, library);
        step.params().forEach(options::param);
        return options;
    }

    /**
     * One benchmark class's JMH run as every kernel run makes it (the suite's steps and the A/B comparison's
     * forks): the plan's timing, JSON results into {@code resultFile}, the library passed to each fork.
     */
    static ChainedOptionsBuilder jmhOptions(String benchmarkClass, KernelPlan.Timing timing, Path resultFile,
            Optional<Path> library) {
        return new OptionsBuilder()
                .include("^" + Pattern.quote(benchmarkClass) + "\\.")
                .forks(timing.forks())
                .warmupIterations(timing.warmupIterations())
                .warmupTime(TimeValue.seconds(timing.warmupSeconds()))
                .measurementIterations(timing.measurementIterations())
                .measurementTime(TimeValue.seconds(timing.measurementSeconds()))
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(resultFile.toString())
                .jvmArgsAppend(BenchLibrary.forkArguments(library).toArray(String[]::new));
    }

    private static String describe(KernelPlan.Step step) {
        StringBuilder text = new StringBuilder();
        step.params().forEach((name, values) -> text.append(name).append('=').append(String.join(",", values))
                .append(' '));
        return text.toString().trim();
    }
}

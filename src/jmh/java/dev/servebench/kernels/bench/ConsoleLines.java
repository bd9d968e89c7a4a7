package dev.servebench.kernels.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH's output of a kernel run: everything JMH prints (banners, every iteration, each fork's own lines such as
 * {@code # fork PID benchmarks kernel library PATH}) goes to the run's log file, and the console gets one line per
 * measured point, its score and JMH's error, so that a main job's log shows what was measured rather than ~700
 * lines of JMH's per-iteration progress and advice.
 */
final class ConsoleLines implements OutputFormat {

    private final OutputFormat log;
    private final PrintStream console;

    /**
     * @param log     JMH's own format, writing the full output to a file
     * @param console where the one-line results go
     */
    ConsoleLines(OutputFormat log, PrintStream console) {
        this.log = Objects.requireNonNull(log, "log");
        this.console = Objects.requireNonNull(console, "console");
    }

    /** {@code MemcpyBenchmark.copy bytes=268435456 threads=2: 20909.880 ± 14678.674 us/op (3 iterations)}. */
    static String line(BenchmarkParams params, Result<?> primary, long iterations) {
        String benchmark = params.getBenchmark();
        String name = benchmark.startsWith(KernelPlan.BENCH) ? benchmark.substring(KernelPlan.BENCH.length()) : benchmark;
        String parameters = params.getParamsKeys().stream().map(key -> key + "=" + params.getParam(key))
                .collect(Collectors.joining(" "));
        double error = primary.getScoreError();
        String score = Double.isFinite(error)
                ? String.format(Locale.ROOT, "%.3f ± %.3f", primary.getScore(), error)
                : String.format(Locale.ROOT, "%.3f", primary.getScore());
        return "  " + name + (parameters.isEmpty() ? "" : " " + parameters) + ": " + score + " "
                + primary.getScoreUnit() + " (" + iterations + (iterations == 1 ? " iteration)" : " iterations)");
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        log.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
            IterationResult data) {
        log.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        log.startBenchmark(benchParams);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        log.endBenchmark(result);
        if (result != null) {
            console.println(line(result.getParams(), result.getPrimaryResult(), result.getPrimaryResult().getSampleCount()));
            console.flush();
        }
    }

    @Override
    public void startRun() {
        log.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        log.endRun(result);
    }

    @Override
    public void print(String s) {
        log.print(s);
    }

    @Override
    public void println(String s) {
        log.println(s);
    }

    @Override
    public void flush() {
        log.flush();
        console.flush();
    }

    @Override
    public void close() {
        log.close();
    }

    @Override
    public void verbosePrintln(String s) {
        log.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        log.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        log.write(b);
    }
}

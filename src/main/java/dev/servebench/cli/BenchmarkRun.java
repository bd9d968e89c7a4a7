package dev.servebench.cli;

import dev.servebench.logging.LogFile;
import dev.servebench.perf.ClientFailedException;
import dev.servebench.perf.MeasuredRepeat;
import dev.servebench.perf.RunListener;
import dev.servebench.perf.RunOptions;
import dev.servebench.perf.ServerProbe;
import dev.servebench.perf.SpecRunner;
import dev.servebench.perf.WarmupRejectedException;
import dev.servebench.load.LoadPoint;
import dev.servebench.load.LoadProgress;
import dev.servebench.report.ConsoleSummary;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.server.LaunchSettings;
import dev.servebench.server.ServerTargets;
import dev.servebench.server.ServerUnderTest;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.EmbeddedTargetSpec;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.ProcessTargetSpec;
import dev.servebench.spec.UrlTargetSpec;
import dev.servebench.workload.HfTokenizer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * Wires a {@link RunSettings}: starts the embedded engine when no server was named, measures the spec with
 * {@link SpecRunner} (the perf suite's pipeline), shows each point on the console and turns the outcome into
 * the documented exit code. It measures nothing itself.
 */
final class BenchmarkRun {

    /** Exit codes, documented in the README. */
    static final int OK = 0;
    static final int UNREACHABLE = 2;
    static final int BAD_INPUT = 2;
    static final int INVALID_POINT = 3;
    static final int INTERNAL_ERROR = InternalErrorReport.EXIT_CODE;

    private final RunSettings settings;
    private final PrintWriter out;
    private final PrintWriter err;

    BenchmarkRun(RunSettings settings, PrintWriter out, PrintWriter err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    int execute() throws IOException, InterruptedException {
        PerformanceSpec spec = settings.spec();
        // First: a tokenizer that cannot be loaded is bad input, found before any server starts.
        spec.workload().tokenizer().ifPresent(path -> HfTokenizer.load(path).close());
        Path dir = settings.outputDir().orElseGet(() -> Path.of("reports", "runs",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        // Before the embedded server starts: its (and the client's) library logging lands beside the results.
        Files.createDirectories(dir);
        LogFile.beside(dir);
        return switch (spec.target()) {
            case UrlTargetSpec url -> measure(url.url(), url.kind(), url.model(), SpecRunner.Vocabulary.DEFAULT, dir);
            case EmbeddedTargetSpec embedded -> {
                // No server named: measure the embedded engine, started here on a free loopback port.
                int contextPerSlot = LaunchSettings.embeddedContextFor(spec.workload());
                err.println("servebench: no --base-url: starting the embedded MoE engine (" + embedded.weights().label()
                        + ", " + embedded.slots() + " slots, " + contextPerSlot + " tokens each)");
                err.flush();
                try (ServerUnderTest server = ServerTargets.start(embedded, LaunchSettings.of(dir, settings.apiKey())
                        .withEmbeddedContextPerSlot(contextPerSlot))) {
                    SpecRunner.Vocabulary ids = server.promptTokenIds()
                            .map(range -> new SpecRunner.Vocabulary(range.span(), range.idBase()))
                            .orElse(SpecRunner.Vocabulary.DEFAULT);
                    yield measure(server.baseUrl(), server.kind(), server.model(), ids, dir);
                }
            }
            case ProcessTargetSpec process -> throw new IllegalArgumentException("servebench run measures a url or the"
                    + " embedded engine; a " + process.kind() + " target needs servebench check");
            case ContainerTargetSpec container -> throw new IllegalArgumentException("servebench run measures a url or"
                    + " the embedded engine; a " + container.kind() + " target needs servebench check");
        };
    }

    private int measure(URI baseUrl, String targetKind, Optional<String> model, SpecRunner.Vocabulary vocabulary,
            Path dir) throws IOException, InterruptedException {
        PerformanceSpec spec = settings.spec();
        Console console = new Console();
        SpecRunner runner;
        try {
            runner = new SpecRunner(spec, baseUrl, model, settings.apiKey(), vocabulary, dir, targetKind,
                    MeasuredHardware.NONE, new RunOptions(Optional.of(settings.tag().orElse("")), console));
        } catch (ServerProbe.UnreachableException e) {
            err.println("servebench: " + e.getMessage());
            return UNREACHABLE;
        }
        try (runner) {
            for (LoadPointKey key : spec.sweep().points()) {
                runner.measure(key);
            }
        } catch (WarmupRejectedException e) {
            err.println("servebench: " + e.getMessage());
            return BAD_INPUT;
        } catch (ClientFailedException e) {
            return InternalErrorReport.report(err, e.getMessage() + "; the run stopped, records written so far are in "
                    + dir.toAbsolutePath(), e.getCause());
        }
        out.println("Results in " + dir.toAbsolutePath());
        out.flush();
        return console.anyInvalid ? INVALID_POINT : OK;
    }

    /** The console side of a run: progress on stderr, each point's summary on stdout, INVALID points named. */
    private final class Console implements RunListener {
        private boolean anyInvalid;

        @Override
        public LoadProgress progress(LoadPoint point) {
            return settings.progress() ? new ProgressBar(err, point.describe(), ProgressBar.stderrIsTerminal())
                    : LoadProgress.NONE;
        }

        @Override
        public void warning(String line) {
            err.println("servebench: " + line);
            err.flush();
        }

        @Override
        public void measured(MeasuredRepeat repeat) {
            out.print(ConsoleSummary.render(repeat.description(), repeat.point(), repeat.summary(),
                    repeat.clientUsage(), Optional.of(repeat.context())));
            out.flush();
            if (!repeat.valid()) {
                anyInvalid = true;
                err.println("servebench: " + repeat.point().describe() + ": " + repeat.context().validity().describe()
                        + "; first error: " + repeat.firstFailure());
                err.flush();
            }
        }
    }
}

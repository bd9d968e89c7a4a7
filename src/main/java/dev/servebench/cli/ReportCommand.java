package dev.servebench.cli;

import dev.servebench.history.BaselineFiles;
import dev.servebench.results.AtomicFiles;
import dev.servebench.report.html.HtmlReportRenderer;
import dev.servebench.report.html.ReportLoader;
import dev.servebench.report.html.ReportModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servebench report --run RUN_DIR}: one self-contained HTML page of a perf run (docs/report.md).
 * Exit 0 written, 2 bad input.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write a perf run's self-contained HTML report (charts inlined; opens offline).")
public final class ReportCommand implements Callable<Integer> {

    static final Path KERNELS_ROOT = Path.of("reports", "kernels");

    @Spec
    CommandSpec spec;

    @Option(names = "--run", required = true, paramLabel = "RUN_DIR",
            description = "A reports/perf/<spec>-<time> directory, or a directory of them (its newest run).")
    Path run;

    @Option(names = "--kernels", paramLabel = "DIR|FILE",
            description = "Kernel results: figures.json, its run directory, or a directory of runs (the newest)."
                    + " Default: the newest run under reports/kernels, if any.")
    Path kernels;

    @Option(names = "--history", paramLabel = "DIR",
            description = "History directory holding <spec>.jsonl. Default: reports/history.")
    Path history;

    @Option(names = "--out", paramLabel = "FILE", description = "Output file (default: RUN_DIR/report.html).")
    Path out;

    @Override
    public Integer call() throws IOException {
        Path file;
        try {
            if (history != null && !Files.isDirectory(history)) {
                return fail(history + ": not a directory; expected a history directory holding <spec>.jsonl"
                        + " (servebench history append --root DIR writes one)");
            }
            Path runDirectory = BaselineFiles.resolveRun(run);
            ReportModel model = ReportLoader.load(new ReportLoader.Sources(runDirectory, Optional.ofNullable(kernels),
                    KERNELS_ROOT, history != null ? history : Path.of("reports", "history")),
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
            file = out != null ? out : runDirectory.resolve("report.html");
            AtomicFiles.write(file, HtmlReportRenderer.render(model));
        } catch (NoSuchFileException e) {
            return fail(e.getFile() + ": " + (e.getReason() == null ? "not found" : e.getReason()));
        } catch (IllegalArgumentException e) {
            return fail(e.getMessage());
        }
        spec.commandLine().getOut().println("report " + file);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private int fail(String message) {
        spec.commandLine().getErr().println("servebench: " + message);
        spec.commandLine().getErr().flush();
        return Main.BAD_INPUT;
    }
}

package dev.servebench.cli;

import dev.servebench.baseline.ChangePointOptions;
import dev.servebench.history.RunHistory;
import dev.servebench.history.Trend;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code servebench history append|trend}: the nightly series and its change points (docs/gate.md). */
@Command(name = "history", mixinStandardHelpOptions = true,
        subcommands = {HistoryCommand.Append.class, HistoryCommand.TrendCommand.class},
        description = "Nightly history: reports/history/<spec>.jsonl, change points per metric x load point.")
public final class HistoryCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "append", mixinStandardHelpOptions = true,
            description = "Append a perf run's medians (a run directory, or the newest run below it) to the history.")
    static final class Append implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--from", required = true, paramLabel = "RUN_DIR")
        Path run;

        @Option(names = "--root", paramLabel = "DIR", defaultValue = "reports/history",
                description = "History directory (default: ${DEFAULT-VALUE}).")
        Path root;

        @Override
        public Integer call() throws IOException {
            try {
                spec.commandLine().getOut().println("history " + RunHistory.append(run, root));
                spec.commandLine().getOut().flush();
                return 0;
            } catch (NoSuchFileException e) {
                return HistoryCommand.fail(spec, e.getFile() + ": " + e.getReason());
            } catch (IllegalArgumentException e) {
                return HistoryCommand.fail(spec, e.getMessage());
            }
        }
    }

    @Command(name = "trend", mixinStandardHelpOptions = true,
            description = "Change points (e-divisive means) of every metric x load point series of one environment.")
    static final class TrendCommand implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--history", required = true, paramLabel = "FILE|DIR",
                description = "reports/history/<spec>.jsonl, or a directory: every *.jsonl in it.")
        Path history;

        @Option(names = "--fingerprint", paramLabel = "FP", description = "Environment (default: the newest line's).")
        String fingerprint;

        @Override
        public Integer call() throws IOException {
            if (java.nio.file.Files.isDirectory(history)) {
                List<Path> files;
                try (var list = java.nio.file.Files.list(history)) {
                    files = list.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList();
                }
                int status = 0;
                for (Path file : files) {
                    spec.commandLine().getOut().println(file.getFileName() + ":");
                    status = Math.max(status, trend(file));
                }
                return status;
            }
            return trend(history);
        }

        private int trend(Path file) throws IOException {
            Path history = file;
            try {
                List<RunHistory.Entry> all = RunHistory.read(history, null);
                if (all.isEmpty()) {
                    return HistoryCommand.fail(spec, history + " holds no runs");
                }
                String environment = fingerprint != null ? fingerprint : all.getLast().fingerprint();
                List<RunHistory.Entry> entries = RunHistory.read(history, environment);
                List<Trend.Shift> shifts = Trend.shifts(entries, ChangePointOptions.defaults());
                spec.commandLine().getOut().println(entries.size() + " runs of environment " + environment + ", "
                        + shifts.size() + " change point(s)");
                shifts.forEach(shift -> spec.commandLine().getOut().println("  " + shift.describe()));
                spec.commandLine().getOut().flush();
                return 0;
            } catch (NoSuchFileException e) {
                return HistoryCommand.fail(spec, e.getFile() + ": not found");
            } catch (IllegalArgumentException e) {
                return HistoryCommand.fail(spec, e.getMessage());
            }
        }
    }

    static int fail(CommandSpec spec, String message) {
        spec.commandLine().getErr().println("servebench: " + message);
        spec.commandLine().getErr().flush();
        return 2;
    }
}

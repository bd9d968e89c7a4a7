package dev.servebench.cli;

import dev.servebench.history.BaselineFiles;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code servebench baseline update --from RUN_DIR}: makes a perf run the baseline of its spec and environment. */
@Command(name = "baseline", mixinStandardHelpOptions = true, subcommands = BaselineCommand.Update.class,
        description = "Baselines: reports/baselines/<spec>/<fingerprint>.json.")
public final class BaselineCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = "Add a perf run (a reports/perf/<spec>-<time> directory) to the baseline of its spec and"
                    + " environment fingerprint, which pools its newest --keep runs.")
    static final class Update implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--from", required = true, paramLabel = "RUN_DIR",
                description = "Directory with measurements.json and environment.json.")
        Path run;

        @Option(names = "--root", paramLabel = "DIR", defaultValue = "reports/baselines",
                description = "Where baselines live (default: ${DEFAULT-VALUE}).")
        Path root;

        @Option(names = "--keep", paramLabel = "N", defaultValue = "" + BaselineFiles.DEFAULT_KEEP,
                description = "Newest valid runs the baseline pools (default: ${DEFAULT-VALUE}).")
        int keep;

        @Override
        public Integer call() throws IOException {
            try {
                Path file = BaselineFiles.update(run, root, keep);
                spec.commandLine().getOut().println("baseline " + file);
                spec.commandLine().getOut().flush();
                return 0;
            } catch (NoSuchFileException e) {
                spec.commandLine().getErr().println("servebench: " + e.getFile() + ": " + e.getReason());
                return 2;
            } catch (IllegalArgumentException | com.fasterxml.jackson.core.JacksonException e) {
                spec.commandLine().getErr().println("servebench: " + e.getMessage());
                return 2;
            }
        }
    }
}

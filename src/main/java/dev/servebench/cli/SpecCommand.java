package dev.servebench.cli;

import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecException;
import dev.servebench.spec.SpecReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code servebench spec check FILE...}: performance specs (docs/specs.md), read without measuring anything. */
@Command(name = "spec", mixinStandardHelpOptions = true, subcommands = SpecCommand.Check.class,
        description = "Performance specs (docs/specs.md).")
public final class SpecCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Reports every error of each spec, as the perf suite would meet them, in seconds instead of after a
     * server start. The perf profile runs it before the suite, so a bad spec stops the build there, with
     * its errors once, rather than failing the suite and then every step that reads the suite's results.
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Read specs and print every error in them (file:line:column: what, what was expected);"
                    + " exit 2 when any spec is invalid or unreadable.")
    static final class Check implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "SPEC", description = "YAML spec files.")
        List<Path> files;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            int status = 0;
            for (Path file : files) {
                try {
                    PerformanceSpec read = SpecReader.read(file);
                    out.println(file + ": spec '" + read.name() + "' is valid: " + read.sweep().points().size()
                            + " load points, " + read.expectations().size() + " expectations, "
                            + read.kernelExpectations().size() + " kernel expectations");
                } catch (SpecException e) {
                    err.println(e.getMessage());
                    status = Main.BAD_INPUT;
                } catch (NoSuchFileException e) {
                    err.println(file + ": no such file");
                    status = Main.BAD_INPUT;
                } catch (IOException e) {
                    err.println(file + ": cannot read: " + e.getMessage());
                    status = Main.BAD_INPUT;
                }
            }
            out.flush();
            err.flush();
            return status;
        }
    }
}

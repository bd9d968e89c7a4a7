package dev.servebench.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * One {@code servebench} invocation through the real command line, with what it wrote to its out and err writers
 * and its exit code: the tests assert on the text a user would see, so both streams are captured, not printed.
 */
record CliRun(int exit, String out, String err) {

    static CliRun servebench(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }

    static CliRun servebench(List<String> args) {
        return servebench(args.toArray(String[]::new));
    }

    List<String> lines() {
        return out.lines().toList();
    }
}

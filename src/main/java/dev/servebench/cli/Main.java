package dev.servebench.cli;

import picocli.CommandLine;

/** Entry point of {@code java -jar servebench.jar}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(new CommandLine(new ServebenchCommand()).execute(args));
    }
}

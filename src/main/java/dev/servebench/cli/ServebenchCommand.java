package dev.servebench.cli;

import picocli.CommandLine.Command;

@Command(name = "servebench", mixinStandardHelpOptions = true, version = "servebench 0.1.0",
        description = "Performance test suite for OpenAI-compatible LLM inference servers.",
        subcommands = {RunCommand.class, ServeCommand.class, SummarizeCommand.class, Nvfp4Command.class,
                KernelsCommand.class, BaselineCommand.class, GateCommand.class, CompareCommand.class, HistoryCommand.class,
                ReportCommand.class, SpecCommand.class, CheckCommand.class, RooflineCommand.class})
public final class ServebenchCommand implements Runnable {
    @Override
    public void run() {
        System.err.println("Usage: servebench <command>; try servebench --help");
    }
}

package dev.servebench.cli;

import dev.servebench.results.AtomicFiles;
import dev.servebench.kernels.results.JmhResults;
import dev.servebench.kernels.results.KernelFigures;
import dev.servebench.kernels.results.KernelReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servebench kernels figures JMH.json}: derives the kernel figures (GB/s, GFLOP/s, algbw/busbw,
 * ratios to the baselines, targets) from a JMH result file, e.g. one a GPU runner produced.
 */
@Command(name = "kernels", mixinStandardHelpOptions = true, subcommands = KernelsCommand.Figures.class,
        description = "Kernel benchmark results (run them with ./mvnw -Pkernels package).")
public final class KernelsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "figures", mixinStandardHelpOptions = true,
            description = "Print the derived kernel figures of a JMH JSON result file as Markdown.")
    static final class Figures implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "JMH_JSON", description = "JMH results (-rf json), e.g. jmh.json.")
        Path results;

        @Option(names = "--output", paramLabel = "DIR",
                description = "Also write figures.json and figures.md into DIR.")
        Optional<Path> output;

        @Override
        public Integer call() throws IOException {
            KernelReport report;
            try {
                report = KernelFigures.derive(JmhResults.read(results));
            } catch (NoSuchFileException e) {
                spec.commandLine().getErr().println("servebench: no such file: " + results);
                return 2;
            } catch (IllegalArgumentException | com.fasterxml.jackson.core.JacksonException e) {
                spec.commandLine().getErr().println("servebench: " + results + ": " + e.getMessage());
                return 2;
            }
            String markdown = report.toMarkdown();
            spec.commandLine().getOut().print(markdown);
            spec.commandLine().getOut().flush();
            if (output.isPresent()) {
                Files.createDirectories(output.get());
                AtomicFiles.write(output.get().resolve("figures.md"), markdown);
                report.write(output.get());
            }
            return 0;
        }
    }
}

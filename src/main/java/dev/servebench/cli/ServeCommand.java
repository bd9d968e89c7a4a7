package dev.servebench.cli;

import dev.servebench.server.EmbeddedTarget;
import dev.servebench.server.embedded.TokenDelay;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code servebench serve}: the embedded llama.cpp MoE engine behind an OpenAI-compatible server. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Serve the embedded tiny MoE model (real llama.cpp inference) over the OpenAI API.")
public final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Bind address (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8000", description = "Port, 0 = any free port (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--slots", defaultValue = "16", description = "Sequences decoded together (default ${DEFAULT-VALUE}).")
    int slots;

    @Option(names = "--context-per-slot", defaultValue = "512",
            description = "Prompt + output tokens one request may use (default ${DEFAULT-VALUE}).")
    int contextPerSlot;

    @Option(names = "--weights", defaultValue = "f16", description = "f16 or q4_0 (default ${DEFAULT-VALUE}).")
    String weights;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the generated model weights (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--native-log", description = "Show llama.cpp's own log output.")
    boolean nativeLog;

    @Option(names = "--threads", defaultValue = "2", description = "llama.cpp decode threads (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--token-delay", defaultValue = "0", paramLabel = "DELAY",
            description = "Injected slowdown: hold every token back by a share of its inter-token gap (15%%) or by a"
                    + " fixed time per token (2ms, 500us); default none. For checking regression gates.")
    String tokenDelay;

    @Override
    public Integer call() throws Exception {
        EmbeddedTarget.Options options = new EmbeddedTarget.Options(host, port, slots, contextPerSlot,
                EmbeddedTarget.weights(weights), seed, nativeLog, TokenDelay.parse(tokenDelay), threads);
        try (EmbeddedTarget target = EmbeddedTarget.start(options)) {
            spec.commandLine().getOut().println("servebench: serving " + target.modelName() + " at " + target.baseUrl()
                    + " (" + slots + " slots, " + contextPerSlot + " tokens each"
                    + (options.tokenDelay().isNone() ? "" : ", injected token delay " + options.tokenDelay())
                    + "); its tokenizer for --tokenizer: " + target.tokenizerFile() + "; Ctrl-C stops");
            spec.commandLine().getOut().flush();
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(target::close));
            target.awaitShutdown();
        }
        return 0;
    }
}

package dev.servebench.testserver;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * Runs a full-speed {@link ScriptedServer} as its own process, so a client benchmark does not share a JVM
 * (GC, JIT, event loop threads) with the server. Prints exactly one line, {@code LISTENING <port>}, then
 * serves until stdin reaches end-of-file or the process is killed.
 *
 * <pre>java -cp target/test-classes:&lt;deps&gt; dev.servebench.testserver.ScriptedServerMain --port 0</pre>
 *
 * Options: {@code --port N} (0 = ephemeral, default), {@code --host 127.0.0.1} (loopback only),
 * {@code --threads N} (event loops, default 1), {@code --max-connections N} (open connections served at once,
 * default 1024; beyond it a connection is answered 503), {@code --tokens-per-chunk K} (default 1), and the
 * {@link ConnectionBehavior}: {@code --close-after N} (unannounced close after every Nth response),
 * {@code --connection-close} (announce and close after every response), {@code --http10},
 * {@code --error-framing chunked|content-length}, {@code --whole-framing chunked|content-length},
 * {@code --idle-timeout-ms T}, {@code --slow-start-ms S}. Paced instead of full speed: {@code --ttft-ms T}
 * and {@code --gap-ms G} (fractions allowed), with {@code --quick-first N} answering the first N generation
 * requests with a 1 ms TTFT and 0.2 ms gaps (the server's own warm-up traffic).
 *
 * <p>{@code --emissions} keeps every request's {@link EmissionLog} and reads commands from stdin, one per
 * line, each answered by one line on stdout: {@code CLEAR} (forget the logs so far; answers {@code CLEARED}),
 * {@code DUMP <file>} (write the logs so far as JSON lines; answers {@code DUMPED <count>}). The logs carry
 * {@code System.nanoTime()} stamps: on Linux that is {@code CLOCK_MONOTONIC}, one clock for every process on
 * the machine, so a client in another JVM can be held against them.
 */
public final class ScriptedServerMain {

    private static final String USAGE = "usage: ScriptedServerMain [--port N] [--host 127.0.0.1] [--threads N]"
            + " [--max-connections N] [--tokens-per-chunk K] [--close-after N] [--connection-close] [--http10]"
            + " [--error-framing chunked|content-length] [--whole-framing chunked|content-length]"
            + " [--idle-timeout-ms T] [--slow-start-ms S] [--ttft-ms T] [--gap-ms G] [--quick-first N]"
            + " [--emissions]";

    /** What the command line asks for. */
    record Config(ServerOptions options, int tokensPerChunk, long ttftNanos, long gapNanos, int quickFirst,
                  boolean emissions) {
        Config {
            java.util.Objects.requireNonNull(options, "options");
            if (tokensPerChunk < 1) {
                throw usage("--tokens-per-chunk (" + tokensPerChunk + ") must be >= 1");
            }
            if (ttftNanos < 0 || gapNanos < 0 || quickFirst < 0) {
                throw usage("--ttft-ms, --gap-ms and --quick-first must not be negative");
            }
        }

        Script script() {
            Plan plan = Plan.builder().tokensPerChunk(tokensPerChunk).ttft(Duration.ofNanos(ttftNanos))
                    .gap(Duration.ofNanos(gapNanos)).build();
            Plan quick = Plan.builder().tokensPerChunk(tokensPerChunk).ttft(Duration.ofMillis(1))
                    .gap(Duration.ofNanos(200_000)).build();
            Script.Builder builder = Script.builder().defaultPlan(plan).recordEmissions(emissions);
            return quickFirst == 0 ? builder.build() : builder.byIndex(i -> i < quickFirst ? quick : plan).build();
        }
    }

    private ScriptedServerMain() {
    }

    public static void main(String[] args) throws IOException {
        Config config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ScriptedServerMain: " + e.getMessage());
            System.exit(2);
            return;
        }
        try (ScriptedServer server = ScriptedServer.start(config.script(), config.options())) {
            System.out.println("LISTENING " + server.port());
            System.out.flush();
            if (config.emissions()) {
                EmissionCommands.serve(server, System.in, System.out);
                return;
            }
            InputStream in = System.in;
            byte[] sink = new byte[256];
            while (in.read(sink) >= 0) {
                // Only end-of-file matters: the parent closing our stdin means "stop".
            }
        }
    }

    /** Parses the flags; a bad flag or a contradictory combination is an IllegalArgumentException with usage. */
    static Config parse(String[] args) {
        try {
            return parseFlags(args);
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().contains(USAGE) ? e : usage(e.getMessage());
        }
    }

    private static Config parseFlags(String[] args) {
        ServerOptions options = ServerOptions.defaults();
        ConnectionBehavior connection = options.connection();
        int tokensPerChunk = 1;
        long ttftNanos = 0;
        long gapNanos = 0;
        int quickFirst = 0;
        boolean emissions = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "--connection-close" -> connection = connection.withAnnounceClose(true);
                case "--http10" -> connection = connection.withHttp10(true);
                case "--emissions" -> emissions = true;
                default -> {
                    if (i + 1 >= args.length) {
                        throw usage(flag + " needs a value");
                    }
                    String value = args[++i];
                    switch (flag) {
                        case "--port" -> options = options.withPort(integer(flag, value));
                        case "--host" -> options = options.withHost(value);
                        case "--threads" -> options = options.withIoThreads(integer(flag, value));
                        case "--max-connections" -> options = options.withMaxConnections(integer(flag, value));
                        case "--tokens-per-chunk" -> tokensPerChunk = integer(flag, value);
                        case "--ttft-ms" -> ttftNanos = millisAsNanos(flag, value);
                        case "--gap-ms" -> gapNanos = millisAsNanos(flag, value);
                        case "--quick-first" -> quickFirst = integer(flag, value);
                        case "--close-after" -> connection = connection.withCloseAfterResponses(integer(flag, value));
                        case "--error-framing" -> connection = connection.withErrorFraming(
                                ConnectionBehavior.BodyFraming.parse(value));
                        case "--whole-framing" -> connection = connection.withWholeFraming(
                                ConnectionBehavior.BodyFraming.parse(value));
                        case "--idle-timeout-ms" -> connection = connection.withIdleTimeout(
                                Duration.ofMillis(integer(flag, value)));
                        case "--slow-start-ms" -> connection = connection.withSlowStart(
                                Duration.ofMillis(integer(flag, value)));
                        default -> throw usage("unknown option " + flag);
                    }
                }
            }
        }
        return new Config(options.withConnection(connection), tokensPerChunk, ttftNanos, gapNanos, quickFirst,
                emissions);
    }

    private static long millisAsNanos(String flag, String value) {
        try {
            return Math.round(Double.parseDouble(value) * 1e6);
        } catch (NumberFormatException e) {
            throw usage(flag + " (" + value + ") must be a number of milliseconds");
        }
    }

    private static int integer(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw usage(flag + " (" + value + ") must be an integer");
        }
    }

    private static IllegalArgumentException usage(String problem) {
        return new IllegalArgumentException(problem + "; " + USAGE);
    }
}

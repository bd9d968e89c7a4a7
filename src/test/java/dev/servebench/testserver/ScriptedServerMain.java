package dev.servebench.testserver;

import java.io.IOException;
import java.io.InputStream;

/**
 * Runs a full-speed {@link ScriptedServer} as its own process, so a client benchmark does not share a JVM
 * (GC, JIT, event loop threads) with the server. Prints exactly one line, {@code LISTENING <port>}, then
 * serves until stdin reaches end-of-file or the process is killed.
 *
 * <pre>java -cp target/test-classes:&lt;deps&gt; dev.servebench.testserver.ScriptedServerMain --port 0</pre>
 *
 * Options: {@code --port N} (0 = ephemeral, default), {@code --host 127.0.0.1} (loopback only),
 * {@code --threads N} (event loops, default 1), {@code --tokens-per-chunk K} (default 1).
 */
public final class ScriptedServerMain {

    private ScriptedServerMain() {
    }

    public static void main(String[] args) throws IOException {
        ServerOptions options = ServerOptions.defaults();
        int tokensPerChunk = 1;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw usage(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--port" -> options = options.withPort(parse(flag, value));
                case "--host" -> options = options.withHost(value);
                case "--threads" -> options = options.withIoThreads(parse(flag, value));
                case "--tokens-per-chunk" -> tokensPerChunk = parse(flag, value);
                default -> throw usage("unknown option " + flag);
            }
        }
        Script script = Script.builder()
                .defaultPlan(Plan.builder().tokensPerChunk(tokensPerChunk).build())
                .recordEmissions(false)
                .build();
        try (ScriptedServer server = ScriptedServer.start(script, options)) {
            System.out.println("LISTENING " + server.port());
            System.out.flush();
            InputStream in = System.in;
            byte[] sink = new byte[256];
            while (in.read(sink) >= 0) {
                // Only end-of-file matters: the parent closing our stdin means "stop".
            }
        }
    }

    private static int parse(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw usage(flag + " (" + value + ") must be an integer");
        }
    }

    private static IllegalArgumentException usage(String problem) {
        return new IllegalArgumentException(problem
                + "; usage: ScriptedServerMain [--port N] [--host 127.0.0.1] [--threads N] [--tokens-per-chunk K]");
    }
}

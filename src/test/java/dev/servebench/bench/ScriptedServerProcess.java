package dev.servebench.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The full-speed scripted server ({@code dev.servebench.testserver.ScriptedServerMain}) in its own JVM, started
 * from this JVM's classpath, so a benchmarked client shares no GC, JIT or event loop with it. Closing it closes
 * the server's stdin (its signal to stop) and waits a few seconds before killing it. A server started with
 * {@code --emissions} answers {@link #command(String)}s on its stdout (CLEAR, DUMP file).
 */
final class ScriptedServerProcess implements AutoCloseable {

    private final Process process;
    private final BufferedReader stdout;
    private final int port;

    private ScriptedServerProcess(Process process, BufferedReader stdout, int port) {
        this.process = process;
        this.stdout = stdout;
        this.port = port;
    }

    /**
     * Starts the server with {@code jvmOptions} (e.g. {@code -Xmx2g}) and {@code serverArgs} (e.g.
     * {@code --threads 1}; {@code --port 0} is added) and waits for its {@code LISTENING <port>} line.
     *
     * @throws BenchmarkException when the JVM cannot start or the server exits before listening (its stderr,
     *                            with the reason, goes to this process's stderr)
     */
    static ScriptedServerProcess start(List<String> jvmOptions, List<String> serverArgs) {
        List<String> command = new ArrayList<>();
        command.add(javaTool("java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                "dev.servebench.testserver.ScriptedServerMain", "--port", "0"));
        command.addAll(serverArgs);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new BenchmarkException("cannot start the scripted server (" + command.getFirst() + "): "
                    + e.getMessage());
        }
        try {
            BufferedReader stdout = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            return new ScriptedServerProcess(process, stdout, readPort(process, stdout));
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw new BenchmarkException("the scripted server did not start: " + e.getMessage()
                    + " (command: " + String.join(" ", serverArgs) + "; its stderr is above)");
        }
    }

    /** A tool ({@code java}, {@code jstat}, ...) from the running JDK's {@code bin}, or a clear error if absent. */
    static Path javaTool(String name) {
        Path tool = Path.of(System.getProperty("java.home"), "bin", name);
        if (!Files.isExecutable(tool)) {
            throw new BenchmarkException(name + " not found at " + tool
                    + " — run the benchmark with a full JDK (not a JRE), e.g. through ./mvnw");
        }
        return tool;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /**
     * Sends one stdin command to a server started with {@code --emissions} and returns its one-line answer;
     * an answer that does not start with {@code expected} is a BenchmarkException naming both.
     */
    String command(String command, String expected) {
        try {
            process.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
            String answer = stdout.readLine();
            if (answer == null || !answer.startsWith(expected)) {
                throw new BenchmarkException("the scripted server answered '" + answer + "' to " + command
                        + ", expected " + expected);
            }
            return answer;
        } catch (IOException e) {
            throw new BenchmarkException("cannot send " + command + " to the scripted server: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int readPort(Process server, BufferedReader out) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("LISTENING ")) {
                return Integer.parseInt(line.substring("LISTENING ".length()).trim());
            }
        }
        throw new IOException("it exited (code " + waitExit(server) + ") before printing LISTENING <port>");
    }

    private static String waitExit(Process process) {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "still running";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}

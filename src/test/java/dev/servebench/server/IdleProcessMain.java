package dev.servebench.server;

import java.time.Duration;
import java.util.List;

/**
 * A process that never serves, for process-target tests: prints one line, then sleeps (at most two minutes,
 * so a test that fails to clean up leaves nothing behind for long). {@code --spawn-child} starts one more of
 * itself first; {@code --ignore-term} keeps the JVM from exiting on SIGTERM (a shutdown hook that never ends).
 */
public final class IdleProcessMain {

    public static final String LINE = "idle, not listening";
    static final Duration LIFETIME = Duration.ofMinutes(2);

    private IdleProcessMain() {}

    public static void main(String[] args) throws Exception {
        List<String> flags = List.of(args);
        if (flags.contains("--ignore-term")) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(LIFETIME);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        if (flags.contains("--spawn-child")) {
            new ProcessBuilder(command()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        }
        System.out.println(LINE);
        System.out.flush();
        Thread.sleep(LIFETIME);
    }

    /** {@code java -cp <this class path> IdleProcessMain FLAGS}. */
    static List<String> command(String... flags) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                IdleProcessMain.class.getName()));
        command.addAll(List.of(flags));
        return command;
    }
}

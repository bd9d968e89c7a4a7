package dev.servebench.server.container;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Whether a Docker daemon can run containers here, decided once per JVM. Without any sign of Docker (no
 * {@code DOCKER_HOST}, no known socket, no Testcontainers config) Testcontainers is not asked at all: its
 * probing walks several strategies and would only repeat what the missing socket already says. When it is
 * asked, the answer is awaited for {@link #PROBE_LIMIT_SECONDS} at most, so an unreachable remote daemon
 * cannot hang the run. Testcontainers is an optional dependency: without it on the class path the answer is
 * "no" with that reason, and no Testcontainers class is touched.
 */
public final class DockerAvailability {

    static final long PROBE_LIMIT_SECONDS = 30;
    private static final Answer ANSWER = probe();

    private record Answer(boolean available, String reason) {}

    private DockerAvailability() {}

    /** For {@code @EnabledIf}. */
    public static boolean available() {
        return ANSWER.available();
    }

    /** Why Docker tests run or not, for a skip message. */
    public static String reason() {
        return ANSWER.reason();
    }

    private static Answer probe() {
        if (!TestcontainersClasses.present()) {
            return new Answer(false, "Testcontainers is not on the class path (an optional dependency of"
                    + " servebench; container targets need it)");
        }
        Optional<String> sign = signOfDocker();
        if (sign.isEmpty()) {
            return new Answer(false, "no Docker here: DOCKER_HOST is unset and none of " + socketCandidates() + " exists");
        }
        CompletableFuture<Boolean> asked = CompletableFuture.supplyAsync(
                TestcontainersClasses::dockerAvailable, runnable -> Thread.ofPlatform().daemon().start(runnable));
        try {
            boolean available = asked.get(PROBE_LIMIT_SECONDS, TimeUnit.SECONDS);
            return new Answer(available, available ? "Docker reachable (" + sign.get() + ")"
                    : "Testcontainers found no working Docker daemon (" + sign.get() + ")");
        } catch (java.util.concurrent.TimeoutException e) {
            return new Answer(false, "Docker did not answer within " + PROBE_LIMIT_SECONDS + " s (" + sign.get() + ")");
        } catch (Exception e) {
            return new Answer(false, "probing Docker failed: " + e);
        }
    }

    private static Optional<String> signOfDocker() {
        String host = System.getenv("DOCKER_HOST");
        if (host != null && !host.isBlank()) {
            return Optional.of("DOCKER_HOST is set");
        }
        Path config = Path.of(System.getProperty("user.home"), ".testcontainers.properties");
        if (Files.exists(config)) {
            return Optional.of(config + " exists");
        }
        for (Path socket : socketCandidates()) {
            if (Files.exists(socket)) {
                return Optional.of(socket + " exists");
            }
        }
        return Optional.empty();
    }

    private static List<Path> socketCandidates() {
        List<Path> sockets = new ArrayList<>(List.of(Path.of("/var/run/docker.sock"),
                Path.of(System.getProperty("user.home"), ".docker", "run", "docker.sock"),
                Path.of(System.getProperty("user.home"), ".docker", "desktop", "docker.sock")));
        String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
        if (runtimeDir != null && !runtimeDir.isBlank()) {
            sockets.add(Path.of(runtimeDir, "docker.sock"));
        }
        return sockets;
    }

    /** The only place that names a Testcontainers class, loaded after {@link #present()} said it may be. */
    static final class TestcontainersClasses {

        private TestcontainersClasses() {}

        static boolean present() {
            try {
                Class.forName("org.testcontainers.DockerClientFactory", false,
                        DockerAvailability.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }

        static boolean dockerAvailable() {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        }
    }
}

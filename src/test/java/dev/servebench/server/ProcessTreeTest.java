package dev.servebench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessTreeTest {

    @Test
    void stopsTheProcessAndWhatItStarted() throws Exception {
        Process parent = new ProcessBuilder(IdleProcessMain.command("--spawn-child"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        try {
            List<ProcessHandle> children = awaitChildren(parent.toHandle());
            assertThat(children).hasSize(1);
            long start = System.nanoTime();

            List<ProcessHandle> survivors = ProcessTree.terminate(parent.toHandle(), Duration.ofSeconds(10));

            assertThat(survivors).isEmpty();
            // The orphan was asked to stop too, rather than left to the SIGKILL at the end of the grace period.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
            assertThat(parent.isAlive()).isFalse();
            assertThat(children.getFirst().isAlive()).isFalse();
        } finally {
            parent.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly();
        }
    }

    @Test
    void killsAProcessThatDoesNotStopWhenAsked() throws Exception {
        Process stubborn = new ProcessBuilder(IdleProcessMain.command("--ignore-term")).redirectErrorStream(true).start();
        try {
            // Its shutdown hook is installed once it has printed its line.
            BufferedReader out = new BufferedReader(new InputStreamReader(stubborn.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo(IdleProcessMain.LINE);
            long start = System.nanoTime();

            List<ProcessHandle> survivors = ProcessTree.terminate(stubborn.toHandle(), Duration.ofMillis(500));

            assertThat(survivors).isEmpty();
            assertThat(stubborn.isAlive()).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        } finally {
            stubborn.destroyForcibly();
        }
    }

    private static List<ProcessHandle> awaitChildren(ProcessHandle parent) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            List<ProcessHandle> children = parent.children().toList();
            if (!children.isEmpty()) {
                return children;
            }
            Thread.sleep(50);
        }
        return List.of();
    }
}

package dev.servebench.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import dev.servebench.telemetry.RunEnvironment;

/** A perf run directory as the suite writes it: 3 repeats of one point of spec "demo". */
public final class RunFixtures {

    private static final String SHA = "a".repeat(64);
    /** The machine the runs are made on unless a test names another. */
    public static final String MACHINE = "demo machine";
    public static final String FINGERPRINT = fingerprint(MACHINE);

    private RunFixtures() {
    }

    public static Path run(Path parent, String name, boolean valid) throws IOException {
        return run(parent, name, valid, 1.0, MACHINE);
    }

    /**
     * Throughputs divided and latencies multiplied by {@code slowdown}; no machine speed probe samples.
     *
     * @param machine the CPU model of its environment: another one is another fingerprint
     */
    public static Path run(Path parent, String name, boolean valid, double slowdown, String machine)
            throws IOException {
        return run(parent, name, valid, slowdown, machine, Double.NaN);
    }

    /** The environment of a run on {@code machine}, as the suite writes it. */
    public static RunEnvironment environment(String machine) {
        return new RunEnvironment("demo", SHA, "url", "a server", "demo-model", List.of(), machine, 2, "25", "Linux",
                "");
    }

    public static String fingerprint(String machine) {
        return environment(machine).fingerprint();
    }

    /**
     * As {@link #run(Path, String, boolean, double, String)}, with machine speed probe samples of about 40 ms
     * times {@code machineSlowdown} (NaN: none, as runs recorded before the probe).
     */
    public static Path run(Path parent, String name, boolean valid, double slowdown, String machine,
                           double machineSlowdown) throws IOException {
        String sha = SHA;
        Path run = Files.createDirectories(parent.resolve(name));
        String[] probe = new String[3];
        double[] probeMs = {40.0, 41.0, 39.5};
        for (int i = 0; i < 3; i++) {
            probe[i] = Double.isNaN(machineSlowdown) ? "" : ", \"machine_probe_ms\": " + probeMs[i] * machineSlowdown;
        }
        Files.writeString(run.resolve("measurements.json"), """
                {"spec": "demo", "spec_sha256": "%s", "target": "url", "repeats": 3,
                 "points": [{"point": "concurrency=8", "requested": 64, "valid": %s, "repeats": [
                   {"output_throughput": %s, "p99_ttft_ms": %s%s},
                   {"output_throughput": %s, "p99_ttft_ms": %s%s},
                   {"output_throughput": %s, "p99_ttft_ms": %s%s}]}]}
                """.formatted(sha, valid, 100.0 / slowdown, 20.0 * slowdown, probe[0], 104.0 / slowdown,
                22.0 * slowdown, probe[1], 98.0 / slowdown, 21.0 * slowdown, probe[2]));
        environment(machine).write(run);
        return run;
    }
}

package dev.servebench.history;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A perf run directory as the suite writes it: 3 repeats of one point of spec "demo". */
public final class RunFixtures {

    public static final String FINGERPRINT = "0123456789abcdef";

    private RunFixtures() {
    }

    public static Path run(Path parent, String name, boolean valid) throws IOException {
        String sha = "a".repeat(64);
        Path run = Files.createDirectories(parent.resolve(name));
        Files.writeString(run.resolve("measurements.json"), """
                {"spec": "demo", "spec_sha256": "%s", "target": "url", "repeats": 3,
                 "points": [{"point": "concurrency=8", "requested": 64, "valid": %s, "repeats": [
                   {"output_throughput": 100.0, "p99_ttft_ms": 20.0},
                   {"output_throughput": 104.0, "p99_ttft_ms": 22.0},
                   {"output_throughput": 98.0, "p99_ttft_ms": 21.0}]}]}
                """.formatted(sha, valid));
        Files.writeString(run.resolve("environment.json"), """
                {"spec": "demo", "spec_sha256": "%s", "target_kind": "url", "fingerprint": "%s"}
                """.formatted(sha, FINGERPRINT));
        return run;
    }
}

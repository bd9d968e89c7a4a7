package dev.servebench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.Backend;
import dev.servebench.spec.ProcessTargetSpec;
import dev.servebench.server.ProcessServer;
import dev.servebench.server.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * A spec with a {@code url} target against an OpenAI-compatible server the suite did not start: the
 * embedded engine served by {@code servebench serve} in a separate JVM. End to end: readiness, measurement,
 * validity, the server's own /metrics against the client's counts, and the expectations.
 */
class UrlTargetSpecTest {

    @TempDir
    Path directory;

    @Test
    void aUrlSpecRunsAgainstASeparatelyStartedServerAndItsCountersAgree() throws Exception {
        int port = ServeProcess.freePort();
        ProcessTargetSpec serve = new ProcessTargetSpec(ServeProcess.command(port, "--slots", "4",
                "--context-per-slot", "512", "--weights", "q4_0"), port, Duration.ofSeconds(60), Map.of(),
                Optional.empty(), Backend.OPENAI, Optional.empty());
        try (ProcessServer server = ProcessServer.start(serve, directory.resolve("serve.log"), Optional.empty())) {
            Path spec = directory.resolve("url.yaml");
            Files.writeString(spec, """
                    name: separate-embedded-server
                    description: servebench serve in its own JVM, reached by URL only
                    target:
                      kind: url
                      url: %s
                      backend: openai
                    workload:
                      dataset: random
                      input_len: 24
                      output_len: 16
                      range_ratio: 1.0
                      prompts: 12
                      prompt_format: text
                    sweep:
                      concurrency: [1, 4]
                    warmup: 1
                    validity:
                      max_dispatch_lag_p99_ms: 500
                    expect:
                      - output_throughput >= 1 tok/s @ concurrency=4
                      - completed >= 12 requests @ concurrency=1
                    """.formatted(server.baseUrl()));

            EngineExecutionResults results = SuiteRun.onSpec(spec, directory.resolve("reports"));

            assertThat(results.testEvents().failed().list()).as("failed tests").isEmpty();
            assertThat(results.testEvents().aborted().list()).as("aborted tests").isEmpty();
            assertThat(results.testEvents().succeeded().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                    .contains("measure @ concurrency=1", "measure @ concurrency=4",
                            "server /metrics agrees with the client's token counts @ concurrency=4",
                            "output_throughput ≥ 1 tok/s @ concurrency=4", "completed ≥ 12 requests @ concurrency=1");
        }
    }
}

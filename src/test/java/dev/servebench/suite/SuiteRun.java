package dev.servebench.suite;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The perf suite run by the JUnit engine on a spec, as failsafe runs it, for tests that judge its outcomes; and
 * the scripted server with the small spec against it that those tests share, so each adds only its expectations.
 */
public final class SuiteRun {

    private SuiteRun() {}

    /** Runs {@link SpecSuiteTests} on {@code spec}, writing under {@code reports}; {@code parameters} are key, value pairs. */
    public static EngineExecutionResults onSpec(Path spec, Path reports, String... parameters) {
        if (parameters.length % 2 != 0) {
            throw new IllegalArgumentException("configuration parameters come as key, value pairs; got "
                    + parameters.length + " strings");
        }
        var request = EngineTestKit.engine("junit-jupiter");
        for (int i = 0; i < parameters.length; i += 2) {
            request = request.configurationParameter(parameters[i], parameters[i + 1]);
        }
        return request
                .selectors(selectClass(SpecSuiteTests.class))
                .configurationParameter("servebench.spec", spec.toString())
                .configurationParameter("servebench.reports", reports.toString())
                .execute();
    }

    /** The scripted server {@link #writeScriptedSpec} is meant for: 5 ms to the first token, then 1 ms per token. */
    public static ScriptedServer startScriptedServer() {
        return ScriptedServer.start(Script.of(Plan.builder().ttft(Duration.ofMillis(5)).gap(Duration.ofMillis(1))
                .build()));
    }

    /**
     * Writes {@code scripted.yaml} into {@code directory}: 24 random prompts of 32 → 16 tokens at concurrency 4
     * against the scripted server at {@code baseUri}, followed by {@code expectations} (YAML sections).
     */
    public static Path writeScriptedSpec(Path directory, URI baseUri, String expectations) throws IOException {
        String text = """
                name: scripted
                description: the scripted loopback server, 16 output tokens per request
                target:
                  kind: url
                  url: %s
                  backend: openai
                workload:
                  dataset: random
                  input_len: 32
                  output_len: 16
                  range_ratio: 1.0
                  prompts: 24
                sweep:
                  concurrency: [4]
                warmup: 1
                """.formatted(baseUri) + expectations;
        Path file = directory.resolve("scripted.yaml");
        Files.writeString(file, text);
        return file;
    }
}

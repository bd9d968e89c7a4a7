package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Launches the full-speed server as its own JVM, the way the client benchmark does. */
class ScriptedServerMainTest {

    @Test
    void printsListeningServesAndExitsWhenStdinCloses() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                ScriptedServerMain.class.getName(), "--port", "0", "--host", "127.0.0.1"))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader stdout = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = stdout.readLine();
            assertThat(line).matches("LISTENING \\d+");
            int port = Integer.parseInt(line.substring("LISTENING ".length()));

            try (RawHttpClient raw = new RawHttpClient(port, 5000)) {
                raw.send(RawHttpClient.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":8,\"stream\":true}"));
                RawHttpClient.Response r = raw.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(Sse.data(r.bodyText())).hasSize(9).endsWith("[DONE]");
            }

            process.getOutputStream().close();
            assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("exits after stdin closes").isTrue();
            assertThat(process.exitValue()).isZero();
            assertThat(stdout.readLine()).as("nothing after the LISTENING line").isNull();
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void emissionsAreDumpedAndClearedOnCommand(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                ScriptedServerMain.class.getName(), "--ttft-ms", "2", "--gap-ms", "0.5", "--emissions"))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (var commands = new java.io.PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8)) {
            BufferedReader stdout = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            int port = Integer.parseInt(stdout.readLine().substring("LISTENING ".length()));
            try (RawHttpClient raw = new RawHttpClient(port, 5000)) {
                raw.send(RawHttpClient.post("/v1/completions",
                        "{\"prompt\":[5,5,5],\"max_tokens\":8,\"stream\":true}"));
                assertThat(raw.read().status()).isEqualTo(200);
            }
            Path dump = dir.resolve("emissions.jsonl");
            // The server logs a response just after writing its last bytes (PacedResponse.finish), so the client
            // can hold the whole answer a moment before the log does: ask again until it is there.
            String dumped = "";
            for (int attempt = 0; attempt < 100 && !dumped.equals("DUMPED 1"); attempt++) {
                if (attempt > 0) {
                    Thread.sleep(20);
                }
                commands.println("DUMP " + dump);
                dumped = stdout.readLine();
            }
            assertThat(dumped).isEqualTo("DUMPED 1");
            var log = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dump.toFile());
            assertThat(log.get("prompt_tokens").asInt()).isEqualTo(3);
            assertThat(log.get("ttft_nanos").asLong()).isEqualTo(2_000_000L);
            assertThat(log.get("gap_nanos").asLong()).isEqualTo(500_000L);
            assertThat(log.get("chunk_nanos")).hasSize(8);
            assertThat(log.get("chunk_nanos").get(0).asLong() - log.get("start_nanos").asLong())
                    .as("first chunk no earlier than the TTFT").isGreaterThanOrEqualTo(2_000_000L);
            commands.println("CLEAR");
            assertThat(stdout.readLine()).isEqualTo("CLEARED");
            commands.println("DUMP " + dump);
            assertThat(stdout.readLine()).isEqualTo("DUMPED 0");
            commands.println("SHOW");
            assertThat(stdout.readLine()).startsWith("ERROR unknown command 'SHOW'");
        }
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("exits after stdin closes").isTrue();
        process.destroyForcibly();
    }

    @Test
    void pacingFlagsMakeThePlan() {
        ScriptedServerMain.Config config = ScriptedServerMain.parse(new String[] {"--ttft-ms", "50", "--gap-ms", "10",
                "--quick-first", "4"});
        assertThat(config.script().byIndex().apply(3).ttftNanos()).isEqualTo(1_000_000L);
        assertThat(config.script().byIndex().apply(4).ttftNanos()).isEqualTo(50_000_000L);
        assertThat(config.script().byIndex().apply(4).gapNanos()).isEqualTo(10_000_000L);
        assertThatThrownBy(() -> ScriptedServerMain.parse(new String[] {"--gap-ms", "fast"}))
                .hasMessageStartingWith("--gap-ms (fast) must be a number of milliseconds");
    }

    @Test
    void connectionFlagsSetTheBehavior() {
        ScriptedServerMain.Config config = ScriptedServerMain.parse(new String[] {"--close-after", "3",
                "--connection-close", "--error-framing", "chunked", "--whole-framing", "chunked",
                "--idle-timeout-ms", "5000", "--slow-start-ms", "2000", "--tokens-per-chunk", "4"});
        assertThat(config.tokensPerChunk()).isEqualTo(4);
        assertThat(config.options().connection()).isEqualTo(ConnectionBehavior.keepAlive()
                .withCloseAfterResponses(3).withAnnounceClose(true)
                .withErrorFraming(ConnectionBehavior.BodyFraming.CHUNKED)
                .withWholeFraming(ConnectionBehavior.BodyFraming.CHUNKED)
                .withIdleTimeout(Duration.ofSeconds(5)).withSlowStart(Duration.ofSeconds(2)));
        assertThat(ScriptedServerMain.parse(new String[] {"--http10"}).options().connection().http10()).isTrue();
        assertThat(ScriptedServerMain.parse(new String[] {"--max-connections", "10500", "--threads", "2"}).options())
                .isEqualTo(ServerOptions.defaults().withMaxConnections(10_500).withIoThreads(2));
        assertThat(ScriptedServerMain.parse(new String[0]).options()).isEqualTo(ServerOptions.defaults());
    }

    @Test
    void badFlagsSayWhatIsWrongAndHowToCallIt() {
        assertThatThrownBy(() -> ScriptedServerMain.parse(new String[] {"--http10", "--error-framing", "chunked"}))
                .hasMessageStartingWith("http10 cannot use chunked framing").hasMessageContaining("usage:");
        assertThatThrownBy(() -> ScriptedServerMain.parse(new String[] {"--idle-timeout-ms", "soon"}))
                .hasMessageStartingWith("--idle-timeout-ms (soon) must be an integer");
        assertThatThrownBy(() -> ScriptedServerMain.parse(new String[] {"--close-after"}))
                .hasMessageStartingWith("--close-after needs a value");
        assertThatThrownBy(() -> ScriptedServerMain.parse(new String[] {"--keep-alive", "1"}))
                .hasMessageStartingWith("unknown option --keep-alive");
        assertThatThrownBy(() -> ScriptedServerMain.parse(new String[] {"--max-connections", "0"}))
                .hasMessageStartingWith("maxConnections (0) must be >= 1").hasMessageContaining("usage:");
        assertThatThrownBy(() -> ScriptedServerMain.parse(new String[] {"--tokens-per-chunk", "0"}))
                .hasMessageStartingWith("--tokens-per-chunk (0) must be >= 1");
    }
}

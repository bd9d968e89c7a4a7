package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
}

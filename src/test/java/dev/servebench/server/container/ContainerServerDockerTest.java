package dev.servebench.server.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.servebench.client.Backend;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.GpuRequest;
import dev.servebench.server.CacheReset;
import dev.servebench.server.LaunchSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real container end to end (needs Docker, no GPU): a tiny OpenAI-style stub in {@code python:3-alpine}
 * stands in for SGLang, so ports, environment, log streaming, readiness, cache reset and removal are all
 * exercised. Skipped, with the reason, where there is no Docker.
 */
class ContainerServerDockerTest {

    static final String IMAGE = "python:3-alpine";
    /** Our own minimal server: /health, /v1/models, /v1/completions (one token), /flush_cache. */
    static final String STUB_SERVER = String.join("\n",
            "import http.server, json, os, sys",
            "PORT = int(sys.argv[1])",
            "class Handler(http.server.BaseHTTPRequestHandler):",
            "    def reply(self, code, body):",
            "        data = json.dumps(body).encode()",
            "        self.send_response(code)",
            "        self.send_header('Content-Type', 'application/json')",
            "        self.send_header('Content-Length', str(len(data)))",
            "        self.end_headers()",
            "        self.wfile.write(data)",
            "    def do_GET(self):",
            "        if self.path == '/health': self.reply(200, {})",
            "        elif self.path == '/v1/models': self.reply(200, {'data': [{'id': os.environ['STUB_MODEL']}]})",
            "        else: self.reply(404, {'error': 'no route'})",
            "    def do_POST(self):",
            "        self.rfile.read(int(self.headers.get('Content-Length') or 0))",
            "        if self.path == '/v1/completions': self.reply(200, {'choices': [{'index': 0, 'text': 'x'}]})",
            "        elif self.path == '/flush_cache': self.reply(200, {})",
            "        else: self.reply(404, {'error': 'no route'})",
            "print('stub listening on', PORT, flush=True)",
            "http.server.ThreadingHTTPServer(('0.0.0.0', PORT), Handler).serve_forever()");

    @TempDir
    Path logs;

    @BeforeAll
    static void needsDocker() {
        // An assumption (not @EnabledIf) so the report carries the actual reason: no socket, daemon down, …
        assumeTrue(DockerAvailability.available(), () -> "skipped, needs Docker: " + DockerAvailability.reason());
    }

    @Test
    void aContainerServesIsMeasuredAndIsRemoved() throws Exception {
        int port = freePort();
        ContainerTargetSpec spec = new ContainerTargetSpec(IMAGE, List.of("python3", "-c", STUB_SERVER, Integer.toString(port)),
                new GpuRequest.None(), Optional.of("64m"), Optional.empty(), port, Map.of("STUB_MODEL", "stub-model"),
                Duration.ofMinutes(3), Backend.SGLANG_OAI, Optional.empty());

        ContainerServer server = ContainerServer.start(spec, LaunchSettings.of(logs, Optional.empty()));
        try {
            assertThat(server.baseUrl().getPort()).isEqualTo(port);
            assertThat(server.model()).contains("stub-model");
            assertThat(server.logExcerpt(10)).contains("stub listening on " + port);
            assertThat(server.resetCache()).isInstanceOf(CacheReset.Done.class);
            assertThat(server.describe()).contains(IMAGE, "STUB_MODEL", "no GPUs", "shm 64m");
        } finally {
            server.close();
        }
        assertThat(listening(port)).isFalse();
        assertThat(logs.resolve("server-container.log")).content().contains("stub listening on " + port);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerSettingsTest {

    @Test
    void defaultsBindLoopback() {
        ServerSettings s = ServerSettings.defaults();
        assertThat(s.host()).isEqualTo("127.0.0.1");
        assertThat(s.port()).isEqualTo(8000);
        assertThat(s.maxRequestBytes()).isEqualTo(1 << 20);
        assertThat(s.withPort(0).port()).isZero();
    }

    @Test
    void invalidValuesAreNamedWithTheirValue() {
        ServerSettings s = ServerSettings.defaults();
        assertThatThrownBy(() -> s.withPort(70_000)).hasMessage("port (70000) must be in [0, 65535] (0 = ephemeral)");
        assertThatThrownBy(() -> s.withHost(" ")).hasMessage("host (\" \") must not be blank");
        assertThatThrownBy(() -> s.withMaxConnections(0)).hasMessage("maxConnections (0) must be >= 1");
        assertThatThrownBy(() -> s.withMaxRequestBytes(10)).hasMessage("maxRequestBytes (10) must be >= 1024");
        assertThatThrownBy(() -> s.withReadTimeout(Duration.ZERO)).hasMessage("readTimeout (PT0S) must be > 0");
        assertThatThrownBy(() -> s.withShutdownGrace(Duration.ofSeconds(-1))).hasMessage("shutdownGrace (PT-1S) must be >= 0");
    }

    @Test
    void portInUseFailsToStart() {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 64, Duration.ofMillis(1)))) {
            assertThatThrownBy(() -> EmbeddedServer.start(fx.engine, ServerSettings.defaults().withPort(fx.server.port())))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot listen on 127.0.0.1:" + fx.server.port());
        }
    }
}

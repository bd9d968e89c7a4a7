package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ValidationTest {

    @Test
    void planRejectsImpossibleValuesNamingFieldAndValue() {
        assertThatThrownBy(() -> Plan.builder().ttft(Duration.ofNanos(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ttftNanos (-1) must be >= 0");
        assertThatThrownBy(() -> Plan.builder().gap(Duration.ofMillis(-2)).build())
                .hasMessage("gapNanos (-2000000) must be >= 0");
        assertThatThrownBy(() -> Plan.builder().tokensPerChunk(0).build())
                .hasMessage("tokensPerChunk (0) must be >= 1");
        assertThatThrownBy(() -> Plan.builder().defaultMaxTokens(0).build())
                .hasMessage("defaultMaxTokens (0) must be >= 1");
        assertThatThrownBy(() -> Plan.builder().pingEvery(-1).build()).hasMessage("pingEvery (-1) must be >= 0");
        assertThatThrownBy(() -> new Plan(0, 0, 1, 1, Plan.UsageMode.REQUEST, Fault.none(), false, 0, 0, false, 5))
                .hasMessage("splitDelayNanos (5) needs splitWrites");
    }

    @Test
    void faultsValidate() {
        assertThatThrownBy(() -> new Fault.HttpError(200, "{}")).hasMessage("status (200) must be in 400..599");
        assertThatThrownBy(() -> Fault.resetAfter(-1)).hasMessage("chunks (-1) must be >= 0");
        assertThatThrownBy(() -> Fault.stallAfter(-3)).hasMessage("chunks (-3) must be >= 0");
        assertThatThrownBy(() -> Fault.invalidJsonAt(-1)).hasMessage("chunk (-1) must be >= 0");
        assertThatThrownBy(() -> Fault.inStreamError(-1, "x")).hasMessage("afterChunks (-1) must be >= 0");
        assertThat(Fault.httpError(429, "rate_limit_exceeded", "slow").body())
                .isEqualTo("{\"error\":{\"message\":\"slow\",\"type\":\"rate_limit_exceeded\",\"param\":null,"
                        + "\"code\":429}}");
    }

    @Test
    void onlyZeroLatencyByteLevelPlansAreFullSpeed() {
        assertThat(Plan.fullSpeed().isFullSpeed()).isTrue();
        assertThat(Plan.builder().fault(Fault.noDone()).build().isFullSpeed()).isTrue();
        assertThat(Plan.builder().fault(Fault.resetAfter(1)).build().isFullSpeed()).isFalse();
        assertThat(Plan.builder().fault(Fault.stallAfter(1)).build().isFullSpeed()).isFalse();
        assertThat(Plan.builder().gap(Duration.ofNanos(1)).build().isFullSpeed()).isFalse();
        assertThat(Plan.builder().splitWrites(Duration.ZERO).build().isFullSpeed()).isFalse();
    }

    @Test
    void scriptAndOptionsValidate() {
        assertThatThrownBy(() -> Script.builder().model(" ").build()).hasMessage("model (' ') must not be blank");
        assertThatThrownBy(() -> Script.builder().createdEpochSeconds(-1).build())
                .hasMessage("createdEpochSeconds (-1) must be >= 0");
        assertThatThrownBy(() -> ServerOptions.defaults().withHost("8.8.8.8"))
                .hasMessage("host (8.8.8.8) must be a loopback address");
        assertThatThrownBy(() -> ServerOptions.defaults().withPort(70_000)).hasMessage("port (70000) must be in 0..65535");
        assertThatThrownBy(() -> ServerOptions.defaults().withMaxConnections(0))
                .hasMessage("maxConnections (0) must be >= 1");
        assertThatThrownBy(() -> ServerOptions.defaults().withSpinNanos(-1)).hasMessage("spinNanos (-1) must be >= 0");
    }

    @Test
    void connectionBehaviorValidates() {
        ConnectionBehavior keepAlive = ConnectionBehavior.keepAlive();
        assertThat(ServerOptions.defaults().connection()).isEqualTo(keepAlive);
        assertThatThrownBy(() -> keepAlive.withCloseAfterResponses(-1))
                .hasMessage("closeAfterResponses (-1) must be >= 0");
        assertThatThrownBy(() -> keepAlive.withIdleTimeout(Duration.ofMillis(-1)))
                .hasMessage("idleTimeout (PT-0.001S) must be >= 0");
        assertThatThrownBy(() -> keepAlive.withSlowStart(Duration.ofMillis(-1)))
                .hasMessage("slowStart (PT-0.001S) must be >= 0");
        assertThatThrownBy(() -> keepAlive.withHttp10(true).withErrorFraming(ConnectionBehavior.BodyFraming.CHUNKED))
                .hasMessage("http10 cannot use chunked framing (errorFraming CHUNKED, wholeFraming CONTENT_LENGTH)");
        assertThatThrownBy(() -> ConnectionBehavior.BodyFraming.parse("gzip"))
                .hasMessage("body framing (gzip) must be 'chunked' or 'content-length'");
        assertThatThrownBy(() -> ServerOptions.defaults().withConnection(null)).hasMessage("connection");
    }

    @Test
    void scriptSelectsByHeaderThenIndexThenDefault() {
        Plan a = Plan.builder().tokensPerChunk(2).build();
        Plan b = Plan.builder().tokensPerChunk(3).build();
        Script script = Script.builder().named("a", a).byIndex(i -> i == 5 ? b : null).build();
        assertThat(script.select(5, "a")).isSameAs(a);
        assertThat(script.select(5, null)).isSameAs(b);
        assertThat(script.select(6, null)).isEqualTo(Plan.fullSpeed());
        assertThat(script.select(6, "missing")).isNull();
    }
}

package dev.servebench.server.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenDelayTest {

    @Test
    void parsesPercentagesDurationsAndNone() {
        assertThat(TokenDelay.parse("15%")).isEqualTo(new TokenDelay(Duration.ZERO, 0.15));
        assertThat(TokenDelay.parse(" 2ms ")).isEqualTo(new TokenDelay(Duration.ofMillis(2), 0));
        assertThat(TokenDelay.parse("500us")).isEqualTo(new TokenDelay(Duration.ofNanos(500_000), 0));
        assertThat(TokenDelay.parse("0")).isEqualTo(TokenDelay.NONE);
        assertThat(TokenDelay.parse("")).isEqualTo(TokenDelay.NONE);
        assertThat(TokenDelay.NONE.isNone()).isTrue();
        assertThat(TokenDelay.parse("15%").toString()).isEqualTo("+15.0 % per inter-token gap");
    }

    @Test
    void badTextSaysWhatIsAccepted() {
        assertThatThrownBy(() -> TokenDelay.parse("fast")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("token delay 'fast'").hasMessageContaining("15%").hasMessageContaining("2ms");
        assertThatThrownBy(() -> TokenDelay.parse("-5%")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be in [0, 10]");
        assertThatThrownBy(() -> TokenDelay.parse("20s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("token delay '20s'");
    }

    @Test
    void aFractionStretchesEveryGapAndLeavesTheFirstTokenAlone() {
        TokenDelay delay = TokenDelay.parse("15%");
        long first = 1_000_000;
        assertThat(delay.releaseNanos(0, first, first)).isEqualTo(first);
        assertThat(delay.releaseNanos(1, first + 100_000, first)).isEqualTo(first + 115_000);
        assertThat(delay.releaseNanos(2, first + 300_000, first)).isEqualTo(first + 345_000);
    }

    @Test
    void aFixedDelayAddsToEveryGap() {
        TokenDelay delay = TokenDelay.parse("2ms");
        assertThat(delay.releaseNanos(0, 50, 50)).isEqualTo(50);
        assertThat(delay.releaseNanos(3, 950, 50)).isEqualTo(950 + 6_000_000);
    }

    @Test
    void anElapsedFractionStretchesAllTimeSinceTheRequestArrivedFirstTokenIncluded() {
        TokenDelay delay = TokenDelay.parse("15%elapsed");
        long submitted = 1_000;

        assertThat(delay).isEqualTo(new TokenDelay(Duration.ZERO, 0, 0.15));
        // first token 100 µs after arrival: released 15 µs later; the third, 400 µs after arrival, 60 µs later
        assertThat(delay.releaseNanos(0, submitted + 100_000, submitted + 100_000, submitted))
                .isEqualTo(submitted + 115_000);
        assertThat(delay.releaseNanos(2, submitted + 400_000, submitted + 100_000, submitted))
                .isEqualTo(submitted + 460_000);
        assertThat(delay.toString()).isEqualTo("+15.0 % of all time since the request arrived");
    }
}

package dev.servebench.metric;

import static dev.servebench.metric.MetricId.REQUEST_GOODPUT;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.record.FailureKind;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class GoodputTest {

    private static ServingSummary summarize(MetricOptions options, Records.Builder... builders) {
        return SummaryCalculator.compute(Records.inOrder(builders), 4_000_000_000L, options);
    }

    @Test
    void absentWithoutObjectives() {
        ServingSummary s = summarize(MetricOptions.defaults(), aRequest().sentAt(0).chunksAt(ms(100)));
        assertThat(s.value(REQUEST_GOODPUT)).isEmpty();
        assertThat(s.values()).doesNotContainKey(REQUEST_GOODPUT);
    }

    @Test
    void ttftBoundIsInclusive() {
        MetricOptions options = MetricOptions.defaults().withGoodput(GoodputSlo.ofTtftMs(250));
        ServingSummary s = summarize(options,
                aRequest().sentAt(0).chunksAt(ms(250)),
                aRequest().sentAt(0).chunksAt(ms(250) + 1),
                aRequest().sentAt(ms(100)).chunksAt(ms(300)));
        // good: the first (exactly 250 ms) and the third (200 ms): 2 / 4 s
        assertThat(s.value(REQUEST_GOODPUT)).hasValue(0.5);
    }

    @Test
    void ttftBoundUsesVllmTtft() {
        MetricOptions options = MetricOptions.defaults().withGoodput(GoodputSlo.ofTtftMs(100));
        // role chunk at 0.1 s meets the bound although text only came at 0.4 s
        ServingSummary s = summarize(options, aRequest().sentAt(0).emptyChunkAt(ms(100)).chunksAt(ms(400)));
        assertThat(s.value(REQUEST_GOODPUT)).hasValue(0.25);
    }

    @Test
    void tpotIsZeroForSingleTokenRequests() {
        MetricOptions options = MetricOptions.defaults().withGoodput(GoodputSlo.ofTpotMs(0));
        ServingSummary s = summarize(options,
                aRequest().sentAt(0).chunksAt(ms(500)),
                aRequest().sentAt(0).chunksAt(ms(500), ms(501)));
        assertThat(s.value(REQUEST_GOODPUT)).hasValue(0.25);
    }

    @Test
    void e2elBoundUsesTheLastChoiceBearingEventNotTheDoneLine() {
        MetricOptions options = MetricOptions.defaults().withGoodput(GoodputSlo.ofE2elMs(1000));
        ServingSummary s = summarize(options,
                aRequest().sentAt(0).chunksAt(ms(400), ms(1000)).endAt(ms(1300)),
                aRequest().sentAt(0).chunksAt(ms(400), ms(1001)));
        assertThat(s.value(REQUEST_GOODPUT)).hasValue(0.25);
    }

    @Test
    void everyGivenObjectiveMustHold() {
        GoodputSlo slo = GoodputSlo.ofTtftMs(300).withTpotMs(100).withE2elMs(2000);
        MetricOptions options = MetricOptions.defaults().withGoodput(slo);
        ServingSummary s = summarize(options,
                // ttft 0.3, tpot (0.5 - 0.3) / 2 = 0.1, e2el 0.5: good
                aRequest().sentAt(0).chunksAt(ms(300), ms(400), ms(500)),
                // ttft 0.2 ok, tpot (1.0 - 0.2) / 2 = 0.4 too slow
                aRequest().sentAt(0).chunksAt(ms(200), ms(600), ms(1000)),
                // ttft 0.301 too slow
                aRequest().sentAt(0).chunksAt(ms(301), ms(302), ms(303)),
                // fine, but failed
                aRequest().sentAt(0).chunksAt(ms(100)).failed(FailureKind.RESET));
        assertThat(s.value(REQUEST_GOODPUT)).hasValue(0.25);
    }

    @Test
    void zeroWhenNothingSucceeded() {
        MetricOptions options = MetricOptions.defaults().withGoodput(GoodputSlo.ofE2elMs(1000));
        ServingSummary s = summarize(options, aRequest().sentAt(0).failed(FailureKind.CONNECT));
        assertThat(s.value(REQUEST_GOODPUT)).hasValue(0.0);
    }

    @Test
    void objectivesAreValidated() {
        assertThatThrownBy(() -> GoodputSlo.ofTtftMs(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttftMs (-1.0)");
        assertThatThrownBy(() -> GoodputSlo.ofTpotMs(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tpotMs (NaN)");
        assertThatThrownBy(() -> GoodputSlo.ofE2elMs(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("e2elMs (Infinity)");
        assertThatThrownBy(() -> new GoodputSlo(OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
        assertThat(GoodputSlo.ofTtftMs(0).ttftMs()).hasValue(0.0);
    }
}

package dev.servebench.metric;

import dev.servebench.record.ChunkTimeline;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A seeded, messy load point (queueing, multi-token and empty events, eventless successes, failures,
 * missing and disagreeing usage, records out of order) for the reference cross-check. Changing this
 * class changes the records, so reference-metrics.txt must then be regenerated (see reference_metrics.py).
 */
record RandomWorkload(List<RequestRecord> records, long durationNanos, MetricOptions options) {

    static RandomWorkload generate(long seed) {
        Random r = new Random(seed);
        int n = 50 + r.nextInt(400);
        List<RequestRecord> records = new ArrayList<>();
        long maxEnd = 0;
        for (int i = 0; i < n; i++) {
            long intended = (long) (r.nextDouble() * 20e9);
            long sent = intended + (r.nextInt(3) == 0 ? (long) (r.nextDouble() * 2e9) : 0);
            ChunkTimeline.Builder chunks = new ChunkTimeline.Builder(8);
            long t = sent + (long) (r.nextDouble() * 1.5e9);
            int events = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(60);
            for (int k = 0; k < events; k++) {
                int tokens = r.nextInt(8) == 0 ? 0 : (r.nextInt(5) == 0 ? 1 + r.nextInt(4) : 1);
                chunks.add(t, tokens);
                t += (long) (r.nextDouble() * r.nextDouble() * 0.3e9);
            }
            long end = t + (r.nextBoolean() ? (long) (r.nextDouble() * 0.2e9) : 0);
            ChunkTimeline timeline = chunks.build();
            Optional<Usage> usage = r.nextInt(4) == 0
                    ? Optional.empty()
                    : Optional.of(new Usage(100, (int) (timeline.totalTokens() + (r.nextInt(6) == 0 ? r.nextInt(5) : 0))));
            Outcome outcome = r.nextInt(8) == 0
                    ? Outcome.failure(FailureKind.values()[r.nextInt(8)], "random failure")
                    : Outcome.SUCCESS;
            records.add(new RequestRecord(i, 1 + r.nextInt(2000), 64, intended, sent, end, timeline, usage, outcome));
            maxEnd = Math.max(maxEnd, end);
        }
        long duration = maxEnd + (long) (r.nextDouble() * 1e9);
        Collections.shuffle(records, r);
        TokenSource source = r.nextBoolean() ? TokenSource.SERVER_USAGE : TokenSource.CHUNK_COUNT;
        GoodputSlo slo = GoodputSlo.ofTtftMs(200 + r.nextInt(800)).withTpotMs(r.nextInt(60))
                .withE2elMs(1000 + r.nextInt(8000));
        return new RandomWorkload(records, duration, MetricOptions.of(source).withGoodput(slo));
    }

    /**
     * The per-request values both reference tools aggregate, in dispatch order, as hex floats: the input
     * of reference_metrics.py. Per-request values come from RequestRecord's views; the script redoes
     * only the aggregation, with the reference tools' own code and numpy.
     */
    String referenceInput() {
        GoodputSlo slo = options.goodput().orElseThrow();
        StringBuilder out = new StringBuilder();
        out.append("D ").append(hex(RequestRecord.seconds(durationNanos))).append(' ')
                .append(hex(slo.ttftMs().orElseThrow())).append(' ').append(hex(slo.tpotMs().orElseThrow()))
                .append(' ').append(hex(slo.e2elMs().orElseThrow())).append('\n');
        List<RequestRecord> ordered = new ArrayList<>(records);
        ordered.sort(Comparator.comparingInt(RequestRecord::index));
        for (RequestRecord x : ordered) {
            out.append("R ").append(x.succeeded() ? 1 : 0).append(' ').append(x.promptLen()).append(' ')
                    .append(x.succeeded() ? options.tokenSource().outputLength(x) : 0).append(' ')
                    .append(hex(x.startSeconds())).append(' ')
                    .append(hex(x.sglangTtftSeconds())).append(' ').append(hex(x.sglangLatencySeconds())).append(' ')
                    .append(x.vllmTtftSeconds().map(RandomWorkload::hex).orElse("none")).append(' ')
                    .append(hex(x.vllmLatencySeconds())).append(' ')
                    .append(hex(RequestRecord.seconds(x.queueNanos()))).append(" |");
            for (double v : x.sglangItlSeconds()) {
                out.append(' ').append(hex(v));
            }
            out.append(" |");
            for (double v : x.vllmItlSeconds()) {
                out.append(' ').append(hex(v));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String hex(double v) {
        return Double.toHexString(v);
    }
}

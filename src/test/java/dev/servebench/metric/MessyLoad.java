package dev.servebench.metric;

import dev.servebench.record.ChunkTimeline;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A seeded load point for the store-versus-list parity checks. Unlike {@link RandomWorkload} its times
 * are often quantised to whole milliseconds, so latency and ITL lists are full of ties, and some seeds
 * produce empty or all-failed runs. Changing this class invalidates store-parity-golden.txt (the summaries
 * the pre-store calculator computed); see {@code StoreParityTest}.
 */
record MessyLoad(List<RequestRecord> records, long durationNanos, MetricOptions options) {

    static MessyLoad generate(long seed) {
        Random r = new Random(seed);
        int n = switch ((int) (seed % 7)) {
            case 0 -> 0;
            case 1 -> 1 + r.nextInt(3);
            default -> 20 + r.nextInt(seed % 3 == 0 ? 3000 : 300);
        };
        boolean quantised = r.nextBoolean();
        double failureRate = seed % 11 == 5 ? 1.0 : r.nextDouble() * 0.3;
        List<RequestRecord> records = new ArrayList<>();
        long maxEnd = 0;
        for (int i = 0; i < n; i++) {
            long intended = time(r, r.nextDouble() * 30e9, quantised);
            long ready = intended + (r.nextInt(4) == 0 ? time(r, r.nextDouble() * 1e9, quantised) : 0);
            long sent = ready + (r.nextInt(3) == 0 ? time(r, r.nextDouble() * 1e7, quantised) : 0);
            ChunkTimeline.Builder chunks = new ChunkTimeline.Builder(4);
            long t = sent + time(r, r.nextDouble() * 2e9, quantised);
            int events = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(r.nextInt(5) == 0 ? 300 : 40);
            boolean chat = r.nextBoolean();
            for (int k = 0; k < events; k++) {
                int tokens = chat && k == 0 ? 0 : r.nextInt(10) == 0 ? 0 : r.nextInt(6) == 0 ? 2 + r.nextInt(7) : 1;
                chunks.add(t, tokens);
                t += r.nextInt(20) == 0 ? 0 : time(r, r.nextDouble() * r.nextDouble() * 0.2e9, quantised);
            }
            long end = t + (r.nextBoolean() ? time(r, r.nextDouble() * 0.1e9, quantised) : 0);
            ChunkTimeline timeline = chunks.build();
            Optional<Usage> usage = switch (r.nextInt(6)) {
                case 0 -> Optional.empty();
                case 1 -> Optional.of(new Usage(r.nextInt(500), r.nextInt(4)));
                default -> Optional.of(new Usage(r.nextInt(500), (int) timeline.totalTokens()));
            };
            Outcome outcome = r.nextDouble() < failureRate
                    ? new Outcome.Failure(FailureKind.values()[r.nextInt(FailureKind.values().length)],
                            "failure " + r.nextInt(5), r.nextInt(3) == 0 ? 500 + r.nextInt(5) : 0)
                    : Outcome.SUCCESS;
            records.add(new RequestRecord(i, r.nextInt(3000), 1 + r.nextInt(512), intended, ready, sent, end,
                    timeline, usage, outcome));
            maxEnd = Math.max(maxEnd, end);
        }
        long duration = seed % 13 == 4 ? 0 : maxEnd + (long) (r.nextDouble() * 1e9);
        Collections.shuffle(records, r);
        TokenSource source = r.nextBoolean() ? TokenSource.SERVER_USAGE : TokenSource.CHUNK_COUNT;
        MetricOptions options = MetricOptions.of(source);
        if (r.nextBoolean()) {
            options = options.withGoodput(GoodputSlo.ofTtftMs(100 + r.nextInt(1500)).withTpotMs(r.nextInt(40))
                    .withE2elMs(500 + r.nextInt(9000)));
        }
        return new MessyLoad(records, duration, options);
    }

    private static long time(Random r, double nanos, boolean quantised) {
        return quantised ? Math.round(nanos / 1e6) * 1_000_000L : (long) nanos;
    }

    /** Every value and count of a summary as one line per field, doubles as raw bits (the golden format). */
    static List<String> fingerprint(long seed, ServingSummary s) {
        List<String> lines = new ArrayList<>();
        lines.add(seed + " requests " + s.requests() + " fallbacks " + s.tokenSourceFallbacks() + " mismatches "
                + s.tokenCountMismatches() + " usageMissing " + s.usageMissing() + " withoutEvent "
                + s.successesWithoutEvent() + " failures " + s.failuresByKind().values() + " notes " + s.notes().size());
        for (MetricId id : MetricId.values()) {
            lines.add(seed + " " + id.id() + " " + s.value(id).stream()
                    .mapToObj(v -> Long.toHexString(Double.doubleToRawLongBits(v))).findFirst().orElse("absent"));
        }
        return lines;
    }

    /** The token timeline as one golden line: bucket count and the counts themselves. */
    static String timelineFingerprint(long seed, long[] buckets) {
        return seed + " timeline " + buckets.length + " " + java.util.Arrays.toString(buckets).replace(" ", "");
    }
}

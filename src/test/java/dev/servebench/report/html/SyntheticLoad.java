package dev.servebench.report.html;

import dev.servebench.record.ChunkTimeline;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Deterministic records of a closed-loop load point against a server that stalls for one second in every
 * five and then flushes what it generated meanwhile: the sustained rate stays put while single seconds
 * burst far above it, which is what the timeline has to make visible.
 */
final class SyntheticLoad {

    static final int PROMPT_TOKENS = 1000;
    static final int OUTPUT_TOKENS = 96;
    private static final long MS = 1_000_000L;

    private SyntheticLoad() {
    }

    /** @param slowdown latencies multiplied by this (repeats differ a little) */
    static List<RequestRecord> closedLoop(int concurrency, int requests, long seed, double slowdown) {
        Random random = new Random(seed);
        long[] slotFree = new long[concurrency];
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            int slot = i % concurrency;
            long sent = slotFree[slot] + 2 * MS;
            int prompt = PROMPT_TOKENS - 100 + random.nextInt(200);
            long ttft = (long) ((60 + 8 * concurrency + random.nextInt(20)) * MS * slowdown);
            long itl = (long) ((12 + concurrency) * MS * slowdown);
            ChunkTimeline.Builder chunks = new ChunkTimeline.Builder(OUTPUT_TOKENS);
            long previous = sent;
            for (int k = 0; k < OUTPUT_TOKENS; k++) {
                long generated = sent + ttft + k * itl + random.nextInt(3) * MS;
                previous = Math.max(previous, delivered(generated));
                chunks.add(previous, 1);
            }
            long end = previous + MS;
            records.add(new RequestRecord(i, prompt, OUTPUT_TOKENS, sent, sent, end, chunks.build(),
                    Optional.of(new Usage(prompt, OUTPUT_TOKENS)), Outcome.SUCCESS));
            slotFree[slot] = end;
        }
        return records;
    }

    static long duration(List<RequestRecord> records) {
        return records.stream().mapToLong(RequestRecord::endNanos).max().orElse(0);
    }

    /** Tokens generated during a stall [5k + 2.5 s, 5k + 3.5 s) arrive together when it ends. */
    private static long delivered(long generatedNanos) {
        long period = 5_000 * MS;
        long offset = Math.floorMod(generatedNanos - 2_500 * MS, period);
        return offset < 1_000 * MS ? generatedNanos - offset + 1_000 * MS : generatedNanos;
    }
}

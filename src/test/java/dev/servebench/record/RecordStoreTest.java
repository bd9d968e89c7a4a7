package dev.servebench.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordStoreTest {

    @TempDir
    Path spill;

    /** Seeded records with failures of every kind, eventless requests, empty and multi-token events. */
    static List<RequestRecord> randomRecords(long seed, int n) {
        Random r = new Random(seed);
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long intended = r.nextInt(1_000_000_000);
            long ready = intended + r.nextInt(1000);
            long sent = ready + r.nextInt(1000);
            ChunkTimeline.Builder chunks = new ChunkTimeline.Builder(4);
            long t = sent + r.nextInt(1_000_000);
            int events = r.nextInt(6) == 0 ? 0 : r.nextInt(40);
            for (int k = 0; k < events; k++) {
                chunks.add(t, r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(3));
                t += r.nextInt(3) == 0 ? 0 : r.nextInt(50_000_000);
            }
            Optional<Usage> usage = r.nextInt(4) == 0 ? Optional.empty() : Optional.of(new Usage(r.nextInt(900), r.nextInt(90)));
            Outcome outcome = r.nextInt(5) == 0
                    ? new Outcome.Failure(FailureKind.values()[r.nextInt(FailureKind.values().length)], "reason " + i,
                            r.nextBoolean() ? 0 : 400 + r.nextInt(200))
                    : Outcome.SUCCESS;
            records.add(new RequestRecord(i, r.nextInt(5000), r.nextInt(600), intended, ready, sent,
                    t + r.nextInt(1000), chunks.build(), usage, outcome));
        }
        java.util.Collections.shuffle(records, r);
        return records;
    }

    /** The record as the store rebuilds it: a failure carries its kind's first reason in append order. */
    private static RequestRecord withFirstReasons(RequestRecord record, List<RequestRecord> appended) {
        if (!(record.outcome() instanceof Outcome.Failure f)) {
            return record;
        }
        String first = appended.stream().map(RequestRecord::outcome).filter(o -> o instanceof Outcome.Failure g
                && g.kind() == f.kind()).map(o -> ((Outcome.Failure) o).reason()).findFirst().orElseThrow();
        return new RequestRecord(record.index(), record.promptLen(), record.requestedOutputLen(),
                record.intendedNanos(), record.readyNanos(), record.sentNanos(), record.endNanos(), record.chunks(),
                record.usage(), new Outcome.Failure(f.kind(), first, f.httpStatus()));
    }

    @Test
    void rebuildsEveryRecordFromMemoryAndFromTheSpillFile() throws IOException {
        List<RequestRecord> records = randomRecords(7, 700);
        for (long budget : new long[] {RecordStore.DEFAULT_EVENT_HEAP_BUDGET, 0, 200}) {
            try (RecordStore store = RecordStore.of(records, budget, spill, 3)) {
                if (budget < 1000) {
                    assertThat(store.spilledBytes()).as("budget %d", budget).isPositive();
                } else {
                    assertThat(store.spilledBytes()).isZero();
                }
                assertThat(store.size()).isEqualTo(records.size());
                for (int slot = 0; slot < records.size(); slot++) {
                    assertThat(store.record(slot)).as("slot %d, budget %d", slot, budget)
                            .isEqualTo(withFirstReasons(records.get(slot), records));
                }
                List<RequestRecord> sorted = new ArrayList<>(records);
                sorted.sort(Comparator.comparingInt(RequestRecord::index));
                assertThat(store.toList()).extracting(RequestRecord::index)
                        .containsExactlyElementsOf(sorted.stream().map(RequestRecord::index).toList());
                assertThat(spillFiles()).as("the spill file is unlinked as soon as it is opened").isEmpty();
            }
        }
        assertThat(spillFiles()).isEmpty();
    }

    @Test
    void keepsRetokenizedCountsAndPaysForThemOnlyInPagesThatHaveOne() {
        int n = RequestColumns.PAGE + 10;
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RequestRecord r = new RequestRecord(i, 16, 4, 0, 1_000, 2_000, ChunkTimeline.empty(), Optional.empty(),
                    Outcome.SUCCESS);
            // The first page carries none; in the second every other request has one.
            records.add(i >= RequestColumns.PAGE && i % 2 == 0 ? r.withRetokenizedOutputLen(i % 7) : r);
        }
        try (RecordStore store = RecordStore.of(records);
             RecordStore plain = RecordStore.of(records.stream().map(r -> new RequestRecord(r.index(), r.promptLen(),
                     r.requestedOutputLen(), r.intendedNanos(), r.sentNanos(), r.endNanos(), r.chunks(), r.usage(),
                     r.outcome())).toList())) {
            for (int slot = 0; slot < n; slot++) {
                assertThat(store.record(slot).retokenizedOutputLen()).as("slot %d", slot)
                        .isEqualTo(records.get(slot).retokenizedOutputLen());
                assertThat(store.cursor().moveTo(slot).hasRetokenizedOutputLen())
                        .isEqualTo(records.get(slot).retokenizedOutputLen().isPresent());
            }
            assertThat(store.heapBytes() - plain.heapBytes())
                    .isEqualTo((long) RequestColumns.PAGE * RequestColumns.RETOKENIZED_BYTES_PER_REQUEST);
        }
    }

    @Test
    void cursorGivesTheRecordsPerRequestViews() {
        List<RequestRecord> records = randomRecords(3, 300);
        try (RecordStore store = RecordStore.of(records, 0, spill, 7)) {
            RecordCursor c = store.cursor();
            for (int slot = 0; slot < records.size(); slot++) {
                RequestRecord r = records.get(slot);
                c.moveTo(slot);
                assertThat(c.index()).isEqualTo(r.index());
                assertThat(c.totalTokens()).isEqualTo(r.chunkOutputTokens());
                assertThat(c.sglangTtftSeconds()).isEqualTo(r.sglangTtftSeconds());
                assertThat(c.sglangLatencySeconds()).isEqualTo(r.sglangLatencySeconds());
                assertThat(c.vllmLatencySeconds()).isEqualTo(r.vllmLatencySeconds());
                if (r.chunks().size() > 0) {
                    assertThat(c.vllmTtftSeconds()).isEqualTo(r.vllmTtftSeconds().orElseThrow());
                }
                double[] itl = new double[RequestTimes.sglangItlCount(c)];
                RequestTimes.sglangItlSeconds(c, itl);
                assertThat(itl).containsExactly(r.sglangItlSeconds());
                assertThat(c.usage()).isEqualTo(r.usage());
                assertThat(c.succeeded()).isEqualTo(r.succeeded());
            }
        }
    }

    @Test
    void keepsCountsAndTheFirstFailureByIndex() {
        List<RequestRecord> records = randomRecords(11, 400);
        try (RecordStore store = RecordStore.of(records)) {
            assertThat(store.successes()).isEqualTo((int) records.stream().filter(RequestRecord::succeeded).count());
            assertThat(store.eventCount()).isEqualTo(records.stream().mapToLong(r -> r.chunks().size()).sum());
            assertThat(store.maxEndNanos()).isEqualTo(records.stream().mapToLong(RequestRecord::endNanos).max().orElseThrow());
            RequestRecord first = records.stream().filter(r -> !r.succeeded())
                    .min(Comparator.comparingInt(RequestRecord::index)).orElseThrow();
            Outcome.Failure f = (Outcome.Failure) first.outcome();
            assertThat(store.firstFailure()).hasValue(f.kind() + ": " + f.reason());
        }
        try (RecordStore empty = new RecordStore()) {
            assertThat(empty.firstFailure()).isEmpty();
            assertThat(empty.slotsInIndexOrder()).isEmpty();
        }
    }

    @Test
    void acceptsAppendsFromSeveralThreads() throws Exception {
        List<RequestRecord> records = randomRecords(5, 4000);
        try (RecordStore store = new RecordStore(1000, spill, 16); ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> appends = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                List<RequestRecord> part = records.subList(t * 1000, (t + 1) * 1000);
                appends.add(pool.submit(() -> part.forEach(store::append)));
            }
            for (Future<?> append : appends) {
                append.get();
            }
            assertThat(store.slotsInIndexOrder()).hasSize(4000);
            List<RequestRecord> sorted = new ArrayList<>(records);
            sorted.sort(Comparator.comparingInt(RequestRecord::index));
            List<RequestRecord> rebuilt = store.toList();
            for (int i = 0; i < sorted.size(); i++) {
                assertThat(rebuilt.get(i).chunks()).isEqualTo(sorted.get(i).chunks());
            }
        }
    }

    @Test
    void aMillionEventsSpillAndLeaveOnlyTheRequestColumnsOnTheHeap() {
        int requests = 200_000;
        int events = 128;
        ChunkTimeline.Builder chunks = new ChunkTimeline.Builder(events);
        for (int k = 0; k < events; k++) {
            chunks.add(1_000_000L + k * 20_000_000L, 1);
        }
        RequestRecord template = new RequestRecord(0, 100, 128, 0, 0, 1_000_000L, 4_000_000_000L, chunks.build(),
                Optional.of(new Usage(100, 128)), Outcome.SUCCESS);
        long budget = 1 << 20;
        try (RecordStore store = new RecordStore(budget, spill)) {
            for (int i = 0; i < requests; i++) {
                store.append(template);
            }
            long perRequest = RequestColumns.BYTES_PER_REQUEST;
            // Pages of 4,096 requests: at most one page of slack beyond 67 bytes per request.
            assertThat(store.heapBytes()).isLessThan(requests * perRequest + RequestColumns.PAGE * perRequest
                    + budget + 12L * RecordStore.DEFAULT_CHUNK_EVENTS + 64 * 1024);
            assertThat(store.spilledBytes()).isGreaterThan((long) requests * events * 12 - budget - 12L * RecordStore.DEFAULT_CHUNK_EVENTS);
            RecordCursor last = store.cursor().moveTo(requests - 1);
            assertThat(last.size()).isEqualTo(events);
            assertThat(last.nanosAt(events - 1)).isEqualTo(1_000_000L + (events - 1) * 20_000_000L);
            assertThat(store.cursor().moveTo(0).nanosAt(5)).isEqualTo(1_000_000L + 5 * 20_000_000L);
        }
    }

    @Test
    void aClosedStoreRefusesUse() {
        RecordStore store = RecordStore.of(randomRecords(1, 10), 0, spill, 2);
        store.close();
        store.close();
        assertThatThrownBy(() -> store.append(randomRecords(2, 1).getFirst()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> store.cursor().moveTo(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new RecordStore(-1, spill)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heapBudgetBytes (-1)");
    }

    private List<Path> spillFiles() throws IOException {
        try (Stream<Path> files = Files.list(spill)) {
            return files.toList();
        }
    }
}

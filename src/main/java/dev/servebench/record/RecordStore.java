package dev.servebench.record;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The records of one load point in columns, so that a million requests fit a small heap: the fixed
 * fields in primitive pages ({@link RequestColumns}), the stream events in an {@link EventLog} that
 * spills to a temporary file beyond its heap budget. Records arrive from several network threads:
 * appends and reads are serialised on the store (a read copies one request out, see {@link RecordCursor}).
 *
 * <p>Memory: {@value RequestColumns#BYTES_PER_REQUEST} heap bytes per request (67 MB for a million), and
 * {@value RequestColumns#RETOKENIZED_BYTES_PER_REQUEST} more when a client tokenizer re-counted the output;
 * 12 bytes per event, on the heap up to the budget (default 64 MiB, about 5.6 million events) and on
 * disk beyond it (1.5 GB for 128 million events). A failure keeps only its kind and HTTP status: the first
 * reason of each kind is kept as text, the others live only in the records file, so {@link #record}
 * rebuilds a failure with its kind's first reason.
 *
 * <p>Slots number the requests in append (completion) order; {@link #slotsInIndexOrder()} gives dispatch
 * order. Close the store to release the spill file.
 */
public final class RecordStore implements AutoCloseable {

    public static final long DEFAULT_EVENT_HEAP_BUDGET = 64L << 20;
    static final int DEFAULT_CHUNK_EVENTS = 8192;

    private final RequestColumns columns = new RequestColumns();
    private final EventLog events;
    private final Map<FailureKind, String> firstReasons = new EnumMap<>(FailureKind.class);
    private int successes;
    private long maxEndNanos;
    private int firstFailureIndex = Integer.MAX_VALUE;
    private String firstFailure;
    private boolean closed;
    private UncheckedIOException broken;

    /** A store with the default event heap budget, spilling to {@code java.io.tmpdir}. */
    public RecordStore() {
        this(DEFAULT_EVENT_HEAP_BUDGET, defaultSpillDirectory());
    }

    /**
     * @param eventHeapBudgetBytes heap bytes the events may take before they spill, >= 0
     * @param spillDirectory       where the (immediately unlinked) spill file is created
     */
    public RecordStore(long eventHeapBudgetBytes, Path spillDirectory) {
        this(eventHeapBudgetBytes, spillDirectory, DEFAULT_CHUNK_EVENTS);
    }

    /** As above, with events moved to disk in chunks of {@code chunkEvents} (tests use tiny ones). */
    public RecordStore(long eventHeapBudgetBytes, Path spillDirectory, int chunkEvents) {
        this.events = new EventLog(chunkEvents, eventHeapBudgetBytes, Objects.requireNonNull(spillDirectory, "spillDirectory"));
    }

    /** An in-memory-first store of {@code records} (for tests and re-read records files); close it after use. */
    public static RecordStore of(List<RequestRecord> records) {
        return of(records, DEFAULT_EVENT_HEAP_BUDGET, defaultSpillDirectory(), DEFAULT_CHUNK_EVENTS);
    }

    public static RecordStore of(List<RequestRecord> records, long eventHeapBudgetBytes, Path spillDirectory,
            int chunkEvents) {
        Objects.requireNonNull(records, "records");
        RecordStore store = new RecordStore(eventHeapBudgetBytes, spillDirectory, chunkEvents);
        try {
            for (RequestRecord record : records) {
                store.append(Objects.requireNonNull(record, "records contains null"));
            }
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    private static Path defaultSpillDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** Stores one finished request; called from network threads. */
    public synchronized void append(RequestRecord record) {
        Objects.requireNonNull(record, "record");
        checkOpen();
        long firstEvent = events.size();
        ChunkTimeline chunks = record.chunks();
        try {
            for (int i = 0; i < chunks.size(); i++) {
                events.add(chunks.nanosAt(i), chunks.tokensAt(i));
            }
        } catch (UncheckedIOException e) {
            // A record is lost: every later use fails with the cause instead of summarising fewer requests.
            broken = e;
            throw e;
        }
        columns.add(record, firstEvent);
        maxEndNanos = Math.max(maxEndNanos, record.endNanos());
        switch (record.outcome()) {
            case Outcome.Success s -> successes++;
            case Outcome.Failure f -> {
                firstReasons.putIfAbsent(f.kind(), f.reason());
                if (record.index() < firstFailureIndex) {
                    firstFailureIndex = record.index();
                    firstFailure = f.kind() + ": " + f.reason();
                }
            }
        }
    }

    synchronized void load(int slot, RecordCursor cursor) {
        checkOpen();
        Objects.checkIndex(slot, columns.size());
        columns.load(slot, cursor);
        int count = columns.eventCount(slot);
        long[] nanos = cursor.nanosBuffer(count);
        events.read(columns.firstEvent(slot), count, nanos, cursor.tokensBuffer());
    }

    /** A new cursor over this store (one per reading thread). */
    public RecordCursor cursor() {
        return new RecordCursor(this);
    }

    public synchronized int size() {
        return columns.size();
    }

    public synchronized long eventCount() {
        return events.size();
    }

    public synchronized int successes() {
        return successes;
    }

    /** The latest {@code endNanos}, 0 when empty: the load point's benchmark duration. */
    public synchronized long maxEndNanos() {
        return maxEndNanos;
    }

    /** "KIND: reason" of the failed request with the lowest index, if any failed. */
    public synchronized Optional<String> firstFailure() {
        return Optional.ofNullable(firstFailure);
    }

    /** The reason of the first stored failure of this kind (append order). */
    public synchronized Optional<String> firstReason(FailureKind kind) {
        return Optional.ofNullable(firstReasons.get(kind));
    }

    /** The request in {@code slot} as a record; a failure carries its kind's first reason. */
    public RequestRecord record(int slot) {
        RecordCursor c = cursor().moveTo(slot);
        Outcome outcome = c.succeeded() ? Outcome.SUCCESS
                : new Outcome.Failure(c.failureKind(), firstReason(c.failureKind()).orElseThrow(), c.httpStatus());
        return new RequestRecord(c.index(), c.promptLen(), c.requestedOutputLen(), c.intendedNanos(), c.readyNanos(),
                c.sentNanos(), c.endNanos(), c.timeline(), c.usage(), outcome, c.hasRetokenizedOutputLen()
                        ? java.util.OptionalInt.of(c.retokenizedOutputLen()) : java.util.OptionalInt.empty());
    }

    /** Every record, rebuilt and sorted by index: materialises the whole load point, so only for small ones. */
    public List<RequestRecord> toList() {
        int[] slots = slotsInIndexOrder();
        List<RequestRecord> records = new ArrayList<>(slots.length);
        for (int slot : slots) {
            records.add(record(slot));
        }
        return records;
    }

    /**
     * The slots in dispatch order (ascending {@code index}).
     *
     * @throws IllegalArgumentException when two records share an index
     */
    public synchronized int[] slotsInIndexOrder() {
        checkOpen();
        int n = columns.size();
        long[] keyed = new long[n];
        for (int slot = 0; slot < n; slot++) {
            keyed[slot] = (long) columns.index(slot) << 32 | slot;
        }
        Arrays.sort(keyed);
        int[] slots = new int[n];
        for (int i = 0; i < n; i++) {
            slots[i] = (int) keyed[i];
            if (i > 0 && keyed[i] >>> 32 == keyed[i - 1] >>> 32) {
                throw new IllegalArgumentException("records contain index " + (keyed[i] >>> 32) + " twice");
            }
        }
        return slots;
    }

    /** Heap bytes of the store's own data: request pages, events held in memory, failure reasons. */
    public synchronized long heapBytes() {
        long reasons = 0;
        for (String reason : firstReasons.values()) {
            reasons += 48 + 2L * reason.length();
        }
        return columns.heapBytes() + events.heapBytes() + reasons + (firstFailure == null ? 0 : 48 + 2L * firstFailure.length());
    }

    /** Bytes of events moved to the spill file. */
    public synchronized long spilledBytes() {
        return events.spilledBytes();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("record store is closed");
        }
        if (broken != null) {
            throw new IllegalStateException("record store lost a record: " + broken.getMessage(), broken);
        }
    }

    /** Releases the spill file and the columns; idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            columns.clear();
            events.close();
        }
    }
}

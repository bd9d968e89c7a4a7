package dev.servebench.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Every stream event of a load point (arrival nanos and token count: 12 bytes), in append order, in
 * fixed-size chunks of parallel primitive arrays. Once the chunks on the heap exceed the budget the oldest
 * full ones move to a {@link SpillFile}, so the spilled chunks are always a prefix: chunk c lives at file
 * offset {@code c * chunkBytes} as {@code chunkEvents} longs followed by {@code chunkEvents} ints (native
 * byte order). Not thread-safe: {@link RecordStore} serialises access.
 */
final class EventLog implements AutoCloseable {

    private static final ValueLayout.OfLong NANOS = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt TOKENS = ValueLayout.JAVA_INT_UNALIGNED;

    private final int chunkEvents;
    private final long chunkBytes;
    private final long heapBudgetBytes;
    private final SpillFile spill;
    /** Chunk c's arrays, null once spilled. */
    private final List<long[]> nanosChunks = new ArrayList<>();
    private final List<int[]> tokensChunks = new ArrayList<>();
    private int spilledChunks;
    private int heapChunks;
    private long size;
    private ByteBuffer block;

    EventLog(int chunkEvents, long heapBudgetBytes, Path spillDirectory) {
        if (chunkEvents < 1) {
            throw new IllegalArgumentException("chunkEvents (" + chunkEvents + ") must be >= 1");
        }
        if (heapBudgetBytes < 0) {
            throw new IllegalArgumentException("heapBudgetBytes (" + heapBudgetBytes + ") must be >= 0");
        }
        this.chunkEvents = chunkEvents;
        this.chunkBytes = 12L * chunkEvents;
        this.heapBudgetBytes = heapBudgetBytes;
        this.spill = new SpillFile(spillDirectory);
    }

    long size() {
        return size;
    }

    void add(long nanos, int tokens) {
        int offset = (int) (size % chunkEvents);
        if (offset == 0) {
            startChunk();
        }
        nanosChunks.getLast()[offset] = nanos;
        tokensChunks.getLast()[offset] = tokens;
        size++;
    }

    private void startChunk() {
        // The chunk being filled stays on the heap, whatever the budget.
        while (heapChunks > 0 && (heapChunks + 1) * chunkBytes > heapBudgetBytes) {
            spillOldest();
        }
        nanosChunks.add(new long[chunkEvents]);
        tokensChunks.add(new int[chunkEvents]);
        heapChunks++;
    }

    private void spillOldest() {
        if (block == null) {
            block = ByteBuffer.allocateDirect(Math.toIntExact(chunkBytes)).order(ByteOrder.nativeOrder());
        }
        int c = spilledChunks;
        block.clear();
        block.asLongBuffer().put(nanosChunks.get(c));
        block.position(8 * chunkEvents);
        block.asIntBuffer().put(tokensChunks.get(c));
        block.clear();
        spill.append(block);
        nanosChunks.set(c, null);
        tokensChunks.set(c, null);
        spilledChunks++;
        heapChunks--;
    }

    /** Copies events [from, from + count) into the arrays' first {@code count} slots. */
    void read(long from, int count, long[] nanos, int[] tokens) {
        if (from < 0 || count < 0 || from + count > size) {
            throw new IndexOutOfBoundsException("events [" + from + ", " + (from + count) + ") outside [0, " + size + ")");
        }
        int done = 0;
        while (done < count) {
            long position = from + done;
            int c = (int) (position / chunkEvents);
            int offset = (int) (position % chunkEvents);
            int n = Math.min(count - done, chunkEvents - offset);
            if (c >= spilledChunks) {
                System.arraycopy(nanosChunks.get(c), offset, nanos, done, n);
                System.arraycopy(tokensChunks.get(c), offset, tokens, done, n);
            } else {
                MemorySegment file = spill.segment();
                long base = c * chunkBytes;
                MemorySegment.copy(file, NANOS, base + 8L * offset, nanos, done, n);
                MemorySegment.copy(file, TOKENS, base + 8L * chunkEvents + 4L * offset, tokens, done, n);
            }
            done += n;
        }
    }

    /** Bytes this log holds on the heap: its chunks, the spill buffer and the chunk lists. */
    long heapBytes() {
        return heapChunks * chunkBytes + (block == null ? 0 : chunkBytes) + 8L * 2 * nanosChunks.size();
    }

    long spilledBytes() {
        return spill.size();
    }

    @Override
    public void close() {
        spill.close();
        nanosChunks.clear();
        tokensChunks.clear();
        heapChunks = 0;
    }
}

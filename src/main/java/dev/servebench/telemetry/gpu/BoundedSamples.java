package dev.servebench.telemetry.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps at most {@code capacity} of an unbounded stream, spread evenly over all of it: items whose position
 * is a multiple of a stride. When full, every other kept item is dropped and the stride doubles, so a
 * sampler left running for hours keeps a coarser but complete picture in fixed memory. Not thread-safe.
 */
final class BoundedSamples<T> {

    private final int capacity;
    private final List<T> kept;
    private long offered;
    private long stride = 1;

    BoundedSamples(int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity (" + capacity + ") must be >= 2");
        }
        this.capacity = capacity;
        this.kept = new ArrayList<>(Math.min(capacity, 1024));
    }

    void offer(T item) {
        long position = offered++;
        if (position % stride != 0) {
            return;
        }
        if (kept.size() == capacity) {
            thin();
            if (position % stride != 0) {
                return;
            }
        }
        kept.add(item);
    }

    /** Keeps the items at even positions of the kept list, i.e. positions that are multiples of 2·stride. */
    private void thin() {
        int j = 0;
        for (int i = 0; i < kept.size(); i += 2) {
            kept.set(j++, kept.get(i));
        }
        kept.subList(j, kept.size()).clear();
        stride *= 2;
    }

    List<T> items() {
        return List.copyOf(kept);
    }

    /** How many items were offered in all. */
    long offered() {
        return offered;
    }

    /** Kept items are every stride-th offered one. */
    long stride() {
        return stride;
    }
}

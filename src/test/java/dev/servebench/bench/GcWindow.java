package dev.servebench.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Garbage collections of this JVM and the time they took, as its collector beans count them: a snapshot, or
 * the difference between two ({@link #since}). For G1 the time is the collections' pauses (young, mixed, full,
 * remark and cleanup): what stops every thread of the client, event loops included.
 */
record GcWindow(long collections, long millis) {

    static GcWindow now() {
        long count = 0;
        long time = 0;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, bean.getCollectionCount());
            time += Math.max(0, bean.getCollectionTime());
        }
        return new GcWindow(count, time);
    }

    /** What happened between {@code start} and this snapshot. */
    GcWindow since(GcWindow start) {
        return new GcWindow(collections - start.collections, millis - start.millis);
    }
}

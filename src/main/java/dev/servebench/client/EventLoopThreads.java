package dev.servebench.client;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;

/** Creates the client's event-loop threads and remembers them, so their own CPU time can be read. */
final class EventLoopThreads implements ThreadFactory {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final ThreadFactory delegate = new DefaultThreadFactory("servebench-client", true);
    private final List<Thread> created = new CopyOnWriteArrayList<>();

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = delegate.newThread(task);
        created.add(thread);
        return thread;
    }

    /** CPU nanoseconds per thread; 0 where the JVM does not measure thread CPU time. */
    long[] cpuNanos() {
        long[] nanos = new long[created.size()];
        for (int i = 0; i < nanos.length; i++) {
            long value = THREADS.isThreadCpuTimeSupported() ? THREADS.getThreadCpuTime(created.get(i).threadId()) : 0;
            nanos[i] = Math.max(0, value);
        }
        return nanos;
    }
}

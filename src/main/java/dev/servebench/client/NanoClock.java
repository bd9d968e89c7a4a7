package dev.servebench.client;

/** Monotonic time in nanoseconds on the load point's clock (0 = benchmark start). Injected by the driver. */
@FunctionalInterface
public interface NanoClock {
    long nanos();

    /** {@link System#nanoTime()} shifted so that the moment of this call reads 0. */
    static NanoClock startingNow() {
        long origin = System.nanoTime();
        return () -> System.nanoTime() - origin;
    }
}

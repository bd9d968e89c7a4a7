package dev.servebench.kernels;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** {@code sb_copy}: the memcpy bandwidth baseline measured beside every memory-bound kernel. */
public final class NativeCopy {

    private final MethodHandle copy;

    public NativeCopy(KernelLibrary library) {
        this.copy = library.handle("sb_copy", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    }

    /** Copies all of {@code source} to the start of {@code destination} with {@code threads} threads. */
    public void copy(MemorySegment destination, MemorySegment source, int threads) {
        Segments.requireNative(destination, "destination");
        Segments.requireNative(source, "source");
        if (destination.byteSize() < source.byteSize()) {
            throw new IllegalArgumentException("destination holds " + destination.byteSize()
                    + " bytes, source " + source.byteSize() + "; expected destination >= source");
        }
        Segments.requireThreads(threads);
        try {
            KernelLibrary.check((int) copy.invokeExact(destination, source, source.byteSize(), threads), "sb_copy");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }
}

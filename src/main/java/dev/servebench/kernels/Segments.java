package dev.servebench.kernels;

import java.lang.foreign.MemorySegment;

/** Argument checks done in Java before any native call, so bad input never reaches C. */
public final class Segments {

    private Segments() {
    }

    /** An off-heap segment (heap arrays cannot be passed to native code) that is not NULL. */
    public static MemorySegment requireNative(MemorySegment segment, String name) {
        if (segment == null) {
            throw new NullPointerException(name + " is null; expected a native memory segment");
        }
        if (!segment.isNative()) {
            throw new IllegalArgumentException(name + " is a heap segment; expected native memory (Arena.allocate)");
        }
        if (segment.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name + " is MemorySegment.NULL; expected allocated memory");
        }
        return segment;
    }

    /** Native, non-null, and at least {@code bytes} long. */
    public static MemorySegment requireBytes(MemorySegment segment, String name, long bytes) {
        requireNative(segment, name);
        if (segment.byteSize() < bytes) {
            throw new IllegalArgumentException(name + " holds " + segment.byteSize() + " bytes; expected at least "
                    + bytes);
        }
        return segment;
    }

    public static int requireThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads = " + threads + "; expected at least 1");
        }
        return threads;
    }
}

package dev.servebench.kernels.allreduce;

import dev.servebench.kernels.Segments;
import java.lang.foreign.MemorySegment;

/**
 * Checks of one collective's arguments, shared by {@link JavaAllreduce} and {@link NativeAllreduce} so bad
 * input fails the same way in Java before any rank starts (the native library repeats them in C).
 */
final class AllreduceBuffers {

    private AllreduceBuffers() {
    }

    /** A message of whole 16-byte units that fits the {@code maxBytes} the buffers were sized for. */
    static long requireCount(long count, long maxBytes) {
        if (count < 0) {
            throw new IllegalArgumentException("count = " + count + "; expected at least 0 bf16 elements");
        }
        if (count > maxBytes / 2) {
            throw new IllegalArgumentException("count = " + count + " bf16 elements is more than the maxBytes = "
                    + maxBytes + " this allreduce was sized for");
        }
        if (count % MessageParts.ELEMENTS_PER_UNIT != 0) {
            throw new IllegalArgumentException("count = " + count + " bf16 elements is " + 2 * count
                    + " bytes; expected a multiple of 16 bytes (8 elements), as custom allreduce requires");
        }
        return count;
    }

    static int requireRepeats(int repeats) {
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats = " + repeats + "; expected at least 1");
        }
        return repeats;
    }

    static long requireMaxBytes(long maxBytes) {
        if (maxBytes < 0 || maxBytes > 1L << 40) {
            throw new IllegalArgumentException("maxBytes = " + maxBytes + "; expected 0..2^40");
        }
        return maxBytes;
    }

    /**
     * One buffer per rank, each holding {@code count} bf16 elements (native memory when
     * {@code requireNative}); outputs[r] is either exactly inputs[r] (in place) or memory that no other
     * input or output uses, because peers read every input while each rank writes its output.
     */
    static void requireBuffers(int ranks, MemorySegment[] inputs, MemorySegment[] outputs, long count,
            boolean requireNative) {
        requireArray(inputs, "inputs", ranks, 2 * count, requireNative);
        requireArray(outputs, "outputs", ranks, 2 * count, requireNative);
        for (int r = 0; r < ranks; r++) {
            requireOutput(r, inputs, outputs[r], count);
            for (int q = 0; q < r; q++) {
                if (overlap(outputs[r].asSlice(0, 2 * count), outputs[q].asSlice(0, 2 * count))) {
                    throw new IllegalArgumentException("outputs[" + r + "] overlaps outputs[" + q
                            + "]; expected every rank to have its own output");
                }
            }
        }
    }

    /** What one rank can check on its own: the inputs, and its output against every input. */
    static void requireRankBuffers(int rank, MemorySegment[] inputs, MemorySegment output, long count) {
        requireArray(inputs, "inputs", inputs == null ? 0 : inputs.length, 2 * count, true);
        requireElement(output, "output", 2 * count, true);
        requireOutput(rank, inputs, output, count);
    }

    private static void requireOutput(int rank, MemorySegment[] inputs, MemorySegment output, long count) {
        long bytes = 2 * count;
        MemorySegment out = output.asSlice(0, bytes);
        for (int p = 0; p < inputs.length; p++) {
            MemorySegment in = inputs[p].asSlice(0, bytes);
            boolean inPlace = p == rank && out.equals(in);
            if (!inPlace && overlap(out, in)) {
                throw new IllegalArgumentException("the output of rank " + rank + " overlaps inputs[" + p
                        + "]; expected it to be exactly inputs[" + rank + "] (in place) or memory no input uses");
            }
        }
    }

    private static void requireArray(MemorySegment[] buffers, String name, int ranks, long bytes,
            boolean requireNative) {
        if (buffers == null) {
            throw new NullPointerException(name + " is null; expected one segment per rank");
        }
        if (buffers.length != ranks) {
            throw new IllegalArgumentException(name + " has " + buffers.length + " segments; expected one per rank ("
                    + ranks + ")");
        }
        for (int p = 0; p < ranks; p++) {
            requireElement(buffers[p], name + "[" + p + "]", bytes, requireNative);
        }
    }

    private static void requireElement(MemorySegment buffer, String name, long bytes, boolean requireNative) {
        if (requireNative) {
            Segments.requireBytes(buffer, name, bytes);
            if ((buffer.address() & 1) != 0) {
                throw new IllegalArgumentException(name + " starts at an odd address; expected bf16 elements "
                        + "aligned to 2 bytes");
            }
        } else if (buffer == null) {
            throw new NullPointerException(name + " is null; expected a memory segment");
        } else if (buffer.byteSize() < bytes) {
            throw new IllegalArgumentException(name + " holds " + buffer.byteSize() + " bytes; expected at least "
                    + bytes);
        }
    }

    private static boolean overlap(MemorySegment a, MemorySegment b) {
        return a.byteSize() > 0 && a.asOverlappingSlice(b).isPresent();
    }
}

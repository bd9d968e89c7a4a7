package dev.servebench.gguf;

import java.util.Arrays;
import java.util.Objects;

/**
 * One tensor's header entry.
 *
 * @param name tensor name, e.g. {@code blk.0.attn_q.weight}
 * @param ne   dimensions in ggml order: ne[0] is contiguous (the numpy shape reversed)
 * @param type storage type
 */
public record TensorInfo(String name, long[] ne, GgmlType type) {
    public TensorInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        ne = ne.clone();
        if (ne.length < 1 || ne.length > 4) {
            throw new IllegalArgumentException("ne of " + name + " (" + Arrays.toString(ne) + ") must have 1..4 dimensions");
        }
        for (long n : ne) {
            if (n < 1) {
                throw new IllegalArgumentException("ne of " + name + " (" + Arrays.toString(ne) + ") must be >= 1");
            }
        }
        if (ne[0] % type.blockSize() != 0) {
            throw new IllegalArgumentException("ne[0] of " + name + " (" + ne[0] + ") must be a multiple of "
                    + type.blockSize() + " for " + type);
        }
    }

    @Override
    public long[] ne() {
        return ne.clone();
    }

    public long rowLength() {
        return ne[0];
    }

    public long elements() {
        long n = 1;
        for (long d : ne) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    public long rows() {
        return elements() / ne[0];
    }

    public long byteSize() {
        return type.bytes(elements());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorInfo t && name.equals(t.name) && Arrays.equals(ne, t.ne) && type == t.type;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, Arrays.hashCode(ne), type);
    }

    @Override
    public String toString() {
        return name + Arrays.toString(ne) + " " + type;
    }
}

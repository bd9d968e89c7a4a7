package dev.servebench.gguf;

/**
 * The ggml tensor types the generator writes, with their GGUF type ids and block layout.
 *
 * @param id        ggml_type value stored in the tensor info
 * @param blockSize elements per block (ne0 must be a multiple)
 * @param blockBytes bytes per block
 */
public enum GgmlType {
    F32(0, 1, 4),
    F16(1, 1, 2),
    /** 32 elements: an f16 scale d, then 16 bytes of 4-bit values q, element = (q - 8) * d. */
    Q4_0(2, 32, 18);

    private final int id;
    private final int blockSize;
    private final int blockBytes;

    GgmlType(int id, int blockSize, int blockBytes) {
        this.id = id;
        this.blockSize = blockSize;
        this.blockBytes = blockBytes;
    }

    public int id() {
        return id;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Bytes that {@code elements} values take; {@code elements} must be a multiple of the block size. */
    public long bytes(long elements) {
        if (elements % blockSize != 0) {
            throw new IllegalArgumentException("elements (" + elements + ") must be a multiple of " + blockSize + " for " + this);
        }
        return elements / blockSize * blockBytes;
    }

    public static GgmlType ofId(int id) {
        for (GgmlType type : values()) {
            if (type.id == id) {
                return type;
            }
        }
        throw new IllegalArgumentException("ggml type id (" + id + ") is not one of F32=0, F16=1, Q4_0=2");
    }
}

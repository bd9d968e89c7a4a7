package dev.servebench.gguf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * Writes a GGUF v3 file: header, metadata, tensor infos, zero padding to {@link #ALIGNMENT}, then each
 * tensor's data at a multiple of {@link #ALIGNMENT} from the start of the data section. Everything goes
 * through one buffer into a FileChannel, so writing tens of MiB costs little beyond generating them.
 */
public final class GgufWriter {

    public static final int MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
    public static final int VERSION = 3;
    /** ggml's default {@code general.alignment}; the file does not override it. */
    public static final int ALIGNMENT = 32;

    /** Produces each tensor's values, row by row (a row is ne[0] values). */
    @FunctionalInterface
    public interface TensorSource {
        RowFiller rows(int index, TensorInfo tensor);
    }

    @FunctionalInterface
    public interface RowFiller {
        void next(float[] row);
    }

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private long position;

    private GgufWriter(FileChannel channel) {
        this.channel = channel;
    }

    /** Writes a complete file; {@code metadata} is written in its iteration order. */
    public static void write(Path path, Map<String, GgufValue> metadata, List<TensorInfo> tensors, TensorSource source)
            throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            GgufWriter writer = new GgufWriter(channel);
            writer.writeAll(metadata, tensors, source);
            writer.flush();
        }
    }

    /** Data-section offsets of {@code tensors}, each aligned to {@link #ALIGNMENT}. */
    public static long[] dataOffsets(List<TensorInfo> tensors) {
        long[] offsets = new long[tensors.size()];
        long next = 0;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = next;
            next = align(next + tensors.get(i).byteSize());
        }
        return offsets;
    }

    static long align(long offset) {
        return (offset + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    private void writeAll(Map<String, GgufValue> metadata, List<TensorInfo> tensors, TensorSource source)
            throws IOException {
        ensure(24);
        buffer.putInt(MAGIC).putInt(VERSION).putLong(tensors.size()).putLong(metadata.size());
        for (Map.Entry<String, GgufValue> entry : metadata.entrySet()) {
            putString(entry.getKey());
            putValue(entry.getValue());
        }
        long[] offsets = dataOffsets(tensors);
        for (int i = 0; i < tensors.size(); i++) {
            TensorInfo tensor = tensors.get(i);
            long[] ne = tensor.ne();
            putString(tensor.name());
            ensure(4 + 8L * ne.length + 4 + 8);
            buffer.putInt(ne.length);
            for (long n : ne) {
                buffer.putLong(n);
            }
            buffer.putInt(tensor.type().id()).putLong(offsets[i]);
        }
        padTo(align(position()));
        long dataStart = position();
        for (int i = 0; i < tensors.size(); i++) {
            padTo(dataStart + offsets[i]);
            writeTensor(tensors.get(i), source.rows(i, tensors.get(i)));
        }
    }

    private void writeTensor(TensorInfo tensor, RowFiller rows) throws IOException {
        float[] row = new float[Math.toIntExact(tensor.rowLength())];
        int rowBytes = Math.toIntExact(tensor.type().bytes(row.length));
        for (long r = 0, n = tensor.rows(); r < n; r++) {
            rows.next(row);
            ensure(rowBytes);
            TensorEncoding.encode(row, tensor.type(), buffer);
        }
    }

    private void putValue(GgufValue value) throws IOException {
        switch (value) {
            case GgufValue.U32(long v) -> {
                ensure(8);
                buffer.putInt(GgufValue.UINT32).putInt((int) v);
            }
            case GgufValue.F32(float v) -> {
                ensure(8);
                buffer.putInt(GgufValue.FLOAT32).putFloat(v);
            }
            case GgufValue.Bool(boolean v) -> {
                ensure(5);
                buffer.putInt(GgufValue.BOOL).put((byte) (v ? 1 : 0));
            }
            case GgufValue.Str(String v) -> {
                ensure(4);
                buffer.putInt(GgufValue.STRING);
                putString(v);
            }
            case GgufValue.StrArray(List<String> values) -> {
                arrayHeader(GgufValue.STRING, values.size());
                for (String s : values) {
                    putString(s);
                }
            }
            case GgufValue.F32Array a -> {
                float[] values = a.values();
                arrayHeader(GgufValue.FLOAT32, values.length);
                for (float v : values) {
                    ensure(4);
                    buffer.putFloat(v);
                }
            }
            case GgufValue.I32Array a -> {
                int[] values = a.values();
                arrayHeader(GgufValue.INT32, values.length);
                for (int v : values) {
                    ensure(4);
                    buffer.putInt(v);
                }
            }
            case GgufValue.Skipped s -> throw new IllegalArgumentException("cannot write a skipped value of type " + s.type());
        }
    }

    private void arrayHeader(int elementType, int count) throws IOException {
        ensure(16);
        buffer.putInt(GgufValue.ARRAY).putInt(elementType).putLong(count);
    }

    private void putString(String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        ensure(8L + bytes.length);
        buffer.putLong(bytes.length).put(bytes);
    }

    private void padTo(long target) throws IOException {
        while (position() < target) {
            ensure(1);
            buffer.put((byte) 0);
        }
    }

    private long position() {
        return position + buffer.position();
    }

    private void ensure(long bytes) throws IOException {
        if (bytes > buffer.capacity()) {
            throw new IllegalArgumentException("item of " + bytes + " bytes exceeds the " + buffer.capacity() + "-byte buffer");
        }
        if (buffer.remaining() < bytes) {
            flush();
        }
    }

    private void flush() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            position += channel.write(buffer);
        }
        buffer.clear();
    }
}

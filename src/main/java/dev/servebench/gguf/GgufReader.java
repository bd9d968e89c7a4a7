package dev.servebench.gguf;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a GGUF v3 header. Value types this project does not model come back as {@link GgufValue.Skipped};
 * tensor types other than F32/F16/Q4_0 are rejected, because only our own files need their tensors read.
 */
public final class GgufReader {

    private final MappedByteBuffer in;

    private GgufReader(MappedByteBuffer in) {
        this.in = in;
    }

    /** Header, metadata and tensor infos. */
    public static GgufFile read(Path path) throws IOException {
        return read(path, true);
    }

    /** Header and metadata only: works for any GGUF model, whatever its tensor types. */
    public static GgufFile readMetadata(Path path) throws IOException {
        return read(path, false);
    }

    private static GgufFile read(Path path, boolean withTensors) throws IOException {
        try (FileChannel channel = FileChannel.open(path)) {
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            map.order(ByteOrder.LITTLE_ENDIAN);
            return new GgufReader(map).parse(path, withTensors);
        }
    }

    private GgufFile parse(Path path, boolean withTensors) {
        int magic = in.getInt();
        if (magic != GgufWriter.MAGIC) {
            throw new IllegalArgumentException(path + " is not a GGUF file (magic 0x" + Integer.toHexString(magic) + ")");
        }
        int version = in.getInt();
        if (version != 3) {
            throw new IllegalArgumentException(path + ": GGUF version (" + version + ") must be 3");
        }
        long tensorCount = in.getLong();
        long kvCount = in.getLong();
        Map<String, GgufValue> metadata = new LinkedHashMap<>();
        for (long i = 0; i < kvCount; i++) {
            String key = string();
            metadata.put(key, value(in.getInt()));
        }
        if (!withTensors) {
            return new GgufFile(version, metadata, List.of(), new long[0], -1);
        }
        List<TensorInfo> tensors = new ArrayList<>();
        long[] offsets = new long[Math.toIntExact(tensorCount)];
        for (int i = 0; i < offsets.length; i++) {
            String name = string();
            long[] ne = new long[in.getInt()];
            for (int d = 0; d < ne.length; d++) {
                ne[d] = in.getLong();
            }
            tensors.add(new TensorInfo(name, ne, GgmlType.ofId(in.getInt())));
            offsets[i] = in.getLong();
        }
        long dataStart = GgufWriter.align(in.position());
        return new GgufFile(version, metadata, tensors, offsets, dataStart);
    }

    private GgufValue value(int type) {
        return switch (type) {
            case GgufValue.UINT32 -> new GgufValue.U32(Integer.toUnsignedLong(in.getInt()));
            case GgufValue.FLOAT32 -> new GgufValue.F32(in.getFloat());
            case GgufValue.BOOL -> new GgufValue.Bool(in.get() != 0);
            case GgufValue.STRING -> new GgufValue.Str(string());
            case GgufValue.ARRAY -> array(in.getInt(), Math.toIntExact(in.getLong()));
            default -> {
                skipScalar(type);
                yield new GgufValue.Skipped(type);
            }
        };
    }

    private GgufValue array(int elementType, int count) {
        switch (elementType) {
            case GgufValue.STRING -> {
                List<String> values = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    values.add(string());
                }
                return new GgufValue.StrArray(values);
            }
            case GgufValue.FLOAT32 -> {
                float[] values = new float[count];
                for (int i = 0; i < count; i++) {
                    values[i] = in.getFloat();
                }
                return new GgufValue.F32Array(values);
            }
            case GgufValue.INT32 -> {
                int[] values = new int[count];
                for (int i = 0; i < count; i++) {
                    values[i] = in.getInt();
                }
                return new GgufValue.I32Array(values);
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    if (elementType == GgufValue.ARRAY) {
                        array(in.getInt(), Math.toIntExact(in.getLong()));
                    } else {
                        skipScalar(elementType);
                    }
                }
                return new GgufValue.Skipped(GgufValue.ARRAY);
            }
        }
    }

    private void skipScalar(int type) {
        int size = switch (type) {
            case GgufValue.UINT8, GgufValue.INT8, GgufValue.BOOL -> 1;
            case GgufValue.UINT16, GgufValue.INT16 -> 2;
            case GgufValue.UINT32, GgufValue.INT32, GgufValue.FLOAT32 -> 4;
            case GgufValue.UINT64, GgufValue.INT64, GgufValue.FLOAT64 -> 8;
            case GgufValue.STRING -> {
                string();
                yield 0;
            }
            default -> throw new IllegalArgumentException("unknown GGUF value type " + type + " at " + in.position());
        };
        in.position(in.position() + size);
    }

    private String string() {
        int length = Math.toIntExact(in.getLong());
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}

package dev.servebench.gguf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The container format, checked on raw bytes (not only through our own reader). */
class GgufWriterTest {

    @TempDir
    Path dir;

    private static final List<TensorInfo> TENSORS = List.of(
            new TensorInfo("a", new long[] {3}, GgmlType.F32),          // 12 bytes at 0
            new TensorInfo("b", new long[] {5, 2}, GgmlType.F16),       // 20 bytes at 32
            new TensorInfo("c", new long[] {32}, GgmlType.Q4_0));       // 18 bytes at 64

    private Path writeSample() throws Exception {
        Map<String, GgufValue> kv = new LinkedHashMap<>();
        kv.put("x.u32", new GgufValue.U32(7));
        kv.put("x.str", new GgufValue.Str("hé"));
        kv.put("x.bool", new GgufValue.Bool(true));
        kv.put("x.f32", new GgufValue.F32(1.5f));
        kv.put("x.ints", new GgufValue.I32Array(new int[] {1, -2}));
        kv.put("x.strs", new GgufValue.StrArray(List.of("p", "qq")));
        Path file = dir.resolve("sample.gguf");
        GgufWriter.write(file, kv, TENSORS, (index, tensor) -> row -> {
            for (int i = 0; i < row.length; i++) {
                row[i] = index * 10 + i;
            }
        });
        return file;
    }

    @Test
    void headerAndFirstKeyValueAreLaidOutAsGgufV3() throws Exception {
        ByteBuffer raw = ByteBuffer.wrap(Files.readAllBytes(writeSample())).order(ByteOrder.LITTLE_ENDIAN);

        byte[] magic = new byte[4];
        raw.get(magic);
        assertThat(new String(magic, StandardCharsets.US_ASCII)).isEqualTo("GGUF");
        assertThat(raw.getInt()).as("version").isEqualTo(3);
        assertThat(raw.getLong()).as("n_tensors").isEqualTo(3);
        assertThat(raw.getLong()).as("n_kv").isEqualTo(6);
        assertThat(raw.getLong()).as("key length").isEqualTo(5);
        byte[] key = new byte[5];
        raw.get(key);
        assertThat(new String(key, StandardCharsets.UTF_8)).isEqualTo("x.u32");
        assertThat(raw.getInt()).as("type UINT32").isEqualTo(4);
        assertThat(raw.getInt()).isEqualTo(7);
        assertThat(raw.getLong()).as("second key length").isEqualTo(5);
    }

    @Test
    void metadataRoundTripsInOrder() throws Exception {
        GgufFile file = GgufReader.read(writeSample());

        assertThat(file.version()).isEqualTo(3);
        assertThat(file.metadata().keySet()).containsExactly("x.u32", "x.str", "x.bool", "x.f32", "x.ints", "x.strs");
        assertThat(file.u32("x.u32")).contains(7L);
        assertThat(file.string("x.str")).contains("hé");
        assertThat(file.metadata().get("x.bool")).isEqualTo(new GgufValue.Bool(true));
        assertThat(file.metadata().get("x.f32")).isEqualTo(new GgufValue.F32(1.5f));
        assertThat(((GgufValue.I32Array) file.metadata().get("x.ints")).values()).containsExactly(1, -2);
        assertThat(file.metadata().get("x.strs")).isEqualTo(new GgufValue.StrArray(List.of("p", "qq")));
        assertThat(file.tensors()).containsExactlyElementsOf(TENSORS);
    }

    @Test
    void tensorDataIsAlignedTo32AndZeroPadded() throws Exception {
        Path path = writeSample();
        GgufFile file = GgufReader.read(path);
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer raw = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(file.offsets()).containsExactly(0, 32, 64);
        assertThat(file.dataStart() % 32).isZero();
        assertThat(bytes).hasSize(Math.toIntExact(file.dataStart() + 64 + 18));
        long start = file.dataStart();
        assertThat(raw.getFloat((int) start)).isEqualTo(0f);
        assertThat(raw.getFloat((int) start + 8)).isEqualTo(2f);
        for (int pad = 12; pad < 32; pad++) {
            assertThat(bytes[(int) start + pad]).as("padding byte %d", pad).isZero();
        }
        // Tensor b (index 1): rows of 5 values 10..14, stored as f16.
        assertThat(Float.float16ToFloat(raw.getShort((int) start + 32))).isEqualTo(10f);
        assertThat(Float.float16ToFloat(raw.getShort((int) start + 32 + 2 * 9))).isEqualTo(14f);
        // Tensor c (index 2): values 20..51, max |x| = 51 -> d = 51 / -8.
        assertThat(Float.float16ToFloat(raw.getShort((int) start + 64))).isEqualTo(Float.float16ToFloat(Float.floatToFloat16(-51f / 8)));
    }

    @Test
    void offsetsFollowSizesRoundedUpToTheAlignment() {
        long[] offsets = GgufWriter.dataOffsets(List.of(
                new TensorInfo("a", new long[] {32}, GgmlType.F32),    // 128 bytes
                new TensorInfo("b", new long[] {1}, GgmlType.F32),     // 4 bytes
                new TensorInfo("c", new long[] {64}, GgmlType.Q4_0))); // 36 bytes

        assertThat(offsets).containsExactly(0, 128, 160);
    }
}

package dev.servebench.gguf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated model matches the layout llama.cpp b4916 was shown to load (docs/embedded-engine.md, GGUF
 * layout b4916 accepts).
 */
class TinyMoeModelTest {

    @TempDir
    Path dir;

    @Test
    void hasExactlyTheTensorSetAndShapesOfTheDocsTable() throws Exception {
        Path path = dir.resolve("m.gguf");
        TinyMoeModel.write(new ModelSpec(1, WeightType.Q4_0), path);
        GgufFile file = GgufReader.read(path);

        List<String> expected = new ArrayList<>(List.of(
                "token_embd.weight [256, 2048] Q4_0", "output_norm.weight [256] F32", "output.weight [256, 2048] Q4_0"));
        for (int b = 0; b < 4; b++) {
            String p = "blk." + b + ".";
            expected.addAll(List.of(p + "attn_norm.weight [256] F32", p + "attn_q.weight [256, 256] Q4_0",
                    p + "attn_k.weight [256, 256] Q4_0", p + "attn_v.weight [256, 256] Q4_0",
                    p + "attn_output.weight [256, 256] Q4_0", p + "ffn_norm.weight [256] F32",
                    p + "ffn_gate_inp.weight [256, 8] F32", p + "ffn_gate_exps.weight [256, 512, 8] Q4_0",
                    p + "ffn_up_exps.weight [256, 512, 8] Q4_0", p + "ffn_down_exps.weight [512, 256, 8] Q4_0"));
        }
        assertThat(file.tensors()).hasSize(43)
                .extracting(t -> t.name() + " " + Arrays.toString(t.ne()) + " " + t.type())
                .containsExactlyElementsOf(expected);
        long params = file.tensors().stream().mapToLong(TensorInfo::elements).sum();
        assertThat(params).as("about 14.7 M parameters").isBetween(14_600_000L, 14_800_000L);

        long[] offsets = file.offsets();
        for (int i = 0; i < offsets.length; i++) {
            assertThat(offsets[i] % GgufWriter.ALIGNMENT).isZero();
            if (i > 0) {
                assertThat(offsets[i]).isGreaterThanOrEqualTo(offsets[i - 1] + file.tensors().get(i - 1).byteSize());
            }
        }
        TensorInfo last = file.tensors().getLast();
        assertThat(Files.size(path)).isEqualTo(file.dataStart() + offsets[offsets.length - 1] + last.byteSize());
    }

    @Test
    void writesTheTwentyFourKeysLlamaCppReads() throws Exception {
        Path path = dir.resolve("m.gguf");
        TinyMoeModel.write(new ModelSpec(1, WeightType.F16), path);
        GgufFile file = GgufReader.readMetadata(path);

        assertThat(file.metadata()).hasSize(24);
        assertThat(file.string("general.architecture")).contains("llama");
        assertThat(file.string("general.name")).contains("tiny-moe-f16");
        assertThat(file.u32("general.file_type")).contains(1L);
        assertThat(file.u32("llama.vocab_size")).contains(2048L);
        assertThat(file.u32("llama.context_length")).contains(2048L);
        assertThat(file.u32("llama.embedding_length")).contains(256L);
        assertThat(file.u32("llama.block_count")).contains(4L);
        assertThat(file.u32("llama.feed_forward_length")).contains(512L);
        assertThat(file.u32("llama.attention.head_count")).contains(4L);
        assertThat(file.u32("llama.attention.head_count_kv")).contains(4L);
        assertThat(file.u32("llama.rope.dimension_count")).contains(64L);
        assertThat(file.metadata().get("llama.rope.freq_base")).isEqualTo(new GgufValue.F32(10000f));
        assertThat(file.metadata().get("llama.attention.layer_norm_rms_epsilon")).isEqualTo(new GgufValue.F32(1e-5f));
        assertThat(file.u32("llama.expert_count")).contains(8L);
        assertThat(file.u32("llama.expert_used_count")).contains(2L);
        assertThat(file.string("tokenizer.ggml.model")).contains("llama");
        assertThat(file.tokens()).hasSize(2048);
        assertThat(((GgufValue.F32Array) file.metadata().get("tokenizer.ggml.scores")).values()).hasSize(2048);
        assertThat(((GgufValue.I32Array) file.metadata().get("tokenizer.ggml.token_type")).values()).hasSize(2048);
        assertThat(file.u32("tokenizer.ggml.unknown_token_id")).contains(0L);
        assertThat(file.u32("tokenizer.ggml.bos_token_id")).contains(1L);
        assertThat(file.u32("tokenizer.ggml.eos_token_id")).contains(2L);
        assertThat(file.metadata().get("tokenizer.ggml.add_bos_token")).isEqualTo(new GgufValue.Bool(true));
        assertThat(file.metadata().get("tokenizer.ggml.add_eos_token")).isEqualTo(new GgufValue.Bool(false));
    }

    @Test
    void sameSpecGivesTheSameBytesAndAnotherSeedDoesNot() throws Exception {
        Path a = dir.resolve("a.gguf");
        Path b = dir.resolve("b.gguf");
        Path c = dir.resolve("c.gguf");
        TinyMoeModel.write(new ModelSpec(5, WeightType.Q4_0), a);
        TinyMoeModel.write(new ModelSpec(5, WeightType.Q4_0), b);
        TinyMoeModel.write(new ModelSpec(6, WeightType.Q4_0), c);

        assertThat(Files.mismatch(a, b)).as("same seed").isEqualTo(-1L);
        assertThat(Files.mismatch(a, c)).as("other seed").isNotEqualTo(-1L);
        assertThat(Files.size(a)).isEqualTo(Files.size(c));
    }

    @Test
    void smallerDimsAreHonoured() throws Exception {
        ModelDims dims = new ModelDims(512, 64, 1, 64, 2, 4, 1, 256);
        Path path = dir.resolve("s.gguf");
        TinyMoeModel.write(new ModelSpec(1, WeightType.F16, dims), path);
        GgufFile file = GgufReader.read(path);

        assertThat(file.tensors()).hasSize(13);
        assertThat(file.tokens()).hasSize(512);
        assertThat(file.tensors().get(0).ne()).containsExactly(64, 512);
        assertThat(file.u32("llama.rope.dimension_count")).contains(32L);
    }
}

package dev.servebench.gguf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The random-weight Mixtral-style MoE that the embedded engine serves: GGUF architecture {@code llama}
 * with {@code expert_count}/{@code expert_used_count}, exactly the tensor set llama.cpp b4916 expects
 * (an extra tensor fails its tensor-count check).
 */
public final class TinyMoeModel {

    /**
     * Standard deviation of the random weights. Small enough that the residual stream stays in f16 range
     * through every block; RMS norms (weight 1) rescale each block's input anyway.
     */
    static final double WEIGHT_STD = 0.02;

    private TinyMoeModel() {
    }

    /** Writes the model for {@code spec} to {@code path} (about 1 s for the tiny shape). */
    public static void write(ModelSpec spec, Path path) throws IOException {
        List<TensorInfo> tensors = tensors(spec);
        GgufWriter.write(path, metadata(spec), tensors, (index, tensor) -> rows(spec.seed(), index, tensor));
    }

    /** The metadata, in file order. */
    public static Map<String, GgufValue> metadata(ModelSpec spec) {
        ModelDims d = spec.dims();
        SpmVocabulary vocab = SpmVocabulary.build(d.vocabSize());
        Map<String, GgufValue> kv = new LinkedHashMap<>();
        kv.put("general.architecture", new GgufValue.Str("llama"));
        kv.put("general.name", new GgufValue.Str(spec.modelName()));
        kv.put("general.file_type", new GgufValue.U32(spec.weights().fileType()));
        kv.put("llama.vocab_size", new GgufValue.U32(d.vocabSize()));
        kv.put("llama.context_length", new GgufValue.U32(d.contextLength()));
        kv.put("llama.embedding_length", new GgufValue.U32(d.embedding()));
        kv.put("llama.block_count", new GgufValue.U32(d.blocks()));
        kv.put("llama.feed_forward_length", new GgufValue.U32(d.feedForward()));
        kv.put("llama.attention.head_count", new GgufValue.U32(d.heads()));
        kv.put("llama.attention.head_count_kv", new GgufValue.U32(d.heads()));
        kv.put("llama.rope.dimension_count", new GgufValue.U32(d.headSize()));
        kv.put("llama.rope.freq_base", new GgufValue.F32(10000f));
        kv.put("llama.attention.layer_norm_rms_epsilon", new GgufValue.F32(1e-5f));
        kv.put("llama.expert_count", new GgufValue.U32(d.experts()));
        kv.put("llama.expert_used_count", new GgufValue.U32(d.expertsUsed()));
        kv.put("tokenizer.ggml.model", new GgufValue.Str("llama"));
        kv.put("tokenizer.ggml.tokens", new GgufValue.StrArray(vocab.pieces()));
        kv.put("tokenizer.ggml.scores", new GgufValue.F32Array(vocab.scores()));
        kv.put("tokenizer.ggml.token_type", new GgufValue.I32Array(vocab.types()));
        kv.put("tokenizer.ggml.unknown_token_id", new GgufValue.U32(SpmVocabulary.UNK));
        kv.put("tokenizer.ggml.bos_token_id", new GgufValue.U32(SpmVocabulary.BOS));
        kv.put("tokenizer.ggml.eos_token_id", new GgufValue.U32(SpmVocabulary.EOS));
        kv.put("tokenizer.ggml.add_bos_token", new GgufValue.Bool(true));
        kv.put("tokenizer.ggml.add_eos_token", new GgufValue.Bool(false));
        return kv;
    }

    /** The 3 + 10 × blocks tensors, in file order. */
    public static List<TensorInfo> tensors(ModelSpec spec) {
        ModelDims d = spec.dims();
        GgmlType w = spec.weights().ggmlType();
        long e = d.embedding(), v = d.vocabSize(), ff = d.feedForward(), x = d.experts();
        List<TensorInfo> tensors = new ArrayList<>();
        tensors.add(new TensorInfo("token_embd.weight", new long[] {e, v}, w));
        tensors.add(new TensorInfo("output_norm.weight", new long[] {e}, GgmlType.F32));
        tensors.add(new TensorInfo("output.weight", new long[] {e, v}, w));
        for (int b = 0; b < d.blocks(); b++) {
            String p = "blk." + b + ".";
            tensors.add(new TensorInfo(p + "attn_norm.weight", new long[] {e}, GgmlType.F32));
            tensors.add(new TensorInfo(p + "attn_q.weight", new long[] {e, e}, w));
            tensors.add(new TensorInfo(p + "attn_k.weight", new long[] {e, e}, w));
            tensors.add(new TensorInfo(p + "attn_v.weight", new long[] {e, e}, w));
            tensors.add(new TensorInfo(p + "attn_output.weight", new long[] {e, e}, w));
            tensors.add(new TensorInfo(p + "ffn_norm.weight", new long[] {e}, GgmlType.F32));
            tensors.add(new TensorInfo(p + "ffn_gate_inp.weight", new long[] {e, x}, GgmlType.F32));
            tensors.add(new TensorInfo(p + "ffn_gate_exps.weight", new long[] {e, ff, x}, w));
            tensors.add(new TensorInfo(p + "ffn_up_exps.weight", new long[] {e, ff, x}, w));
            tensors.add(new TensorInfo(p + "ffn_down_exps.weight", new long[] {ff, e, x}, w));
        }
        return tensors;
    }

    /**
     * Each tensor draws from its own generator seeded by (model seed, tensor index), so its values do not
     * depend on the weight type or on how other tensors are stored.
     */
    private static GgufWriter.RowFiller rows(long seed, int index, TensorInfo tensor) {
        if (tensor.name().endsWith("_norm.weight")) {
            return row -> java.util.Arrays.fill(row, 1.0f);
        }
        SplittableRandom random = new SplittableRandom(seed * 0x9E37_79B9_7F4A_7C15L + index);
        return row -> {
            for (int i = 0; i < row.length; i++) {
                row[i] = (float) (random.nextGaussian() * WEIGHT_STD);
            }
        };
    }
}

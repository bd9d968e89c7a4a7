package dev.servebench.roofline;

import java.util.Map;

/**
 * The deployment servebench was built for, with the source of every figure. Figures marked "assumption" are
 * choices, not published facts; docs/roofline.md lists them.
 */
public final class KnownShapes {

    private KnownShapes() {
    }

    /** 78 layers (3 dense + 75 MoE), hidden 6144, 256 routed experts top-8 + 1 shared, MoE intermediate 2048. */
    public static final int GLM5_LAYERS = 78;
    public static final int GLM5_MOE_LAYERS = 75;
    public static final int GLM5_HIDDEN = 6144;
    public static final int GLM5_MOE_INTERMEDIATE = 2048;
    /** MLA: kv_lora_rank 512 + rope key dim 64 (QK head dim 192 = 128 + 64), 64 attention heads. */
    public static final int GLM5_KV_LATENT = 512;
    public static final int GLM5_ROPE_DIM = 64;
    public static final int GLM5_HEADS = 64;

    /**
     * GLM-5 (744B total, 40B active) in NVFP4 under SGLang TP=8. Sources: GLM-5 technical report table as quoted
     * at https://glennklockwood.com/garden/GLM-5 (parameters, layers, dims, experts); NVIDIA Megatron Bridge docs
     * https://docs.nvidia.com/nemo/megatron-bridge/nightly/models/glm/glm5.html (78 layers, first 3 dense, 256
     * routed top-8 + 1 shared). Assumptions: every weight at 4.5 bits (NVFP4 incl. scales) — attention kept in
     * higher precision would only lower the bound's throughput; bf16 latent KV cache, not split by TP (MLA);
     * the DSA indexer's keys and the MTP layer are ignored.
     */
    public static ModelShape glm5Nvfp4Tp8() {
        return ModelShape.moe("GLM-5 NVFP4", 744e9, 40e9, GLM5_LAYERS, GLM5_MOE_LAYERS, GLM5_HIDDEN, 256, 8, 1,
                ModelShape.swigluParams(GLM5_HIDDEN, GLM5_MOE_INTERMEDIATE), ModelShape.NVFP4_BITS,
                ModelShape.kvBytesMla(GLM5_LAYERS, GLM5_KV_LATENT, GLM5_ROPE_DIM, 2), false,
                (double) GLM5_HEADS * (GLM5_KV_LATENT + GLM5_ROPE_DIM), Precision.FP4, 8);
    }

    public static final String RTX_PRO_6000_SPEC = "NVIDIA RTX PRO 6000 Blackwell data sheet figures as reported by "
            + "https://gpu.name/posts/nvidia-unveils-rtx-pro-6000-blackwell-gpu-with-24-064-cores-and-96gb-memory "
            + "(96 GB GDDR7, 512-bit, 1,792 GB/s)";
    public static final String RTX_PRO_6000_FLOPS = "https://hmc-tech.com/gpu/nvidia-rtx-pro-6000-blackwell-vs-amd-radeon-pro-duo-polaris "
            + "(dense tensor: FP4 2.02 PFLOPS, FP8 1.01 PFLOPS, BF16 503.8 TFLOPS; sparse doubles them; NVIDIA quotes "
            + "4000 AI TOPS = FP4 with sparsity)";

    /**
     * 8 × RTX PRO 6000 Blackwell on PCIe Gen5 x16 without NVLink. The allreduce latency is the issue's ~13 µs per
     * 8-way collective; the bus bandwidth is the PCIe 5.0 x16 line rate per direction (an upper limit).
     */
    public static HardwareShape rtxPro6000x8Pcie() {
        return new HardwareShape("8x RTX PRO 6000 Blackwell (PCIe Gen5, no NVLink)", 8,
                Sourced.of(1792e9, RTX_PRO_6000_SPEC),
                Map.of(Precision.FP4, Sourced.of(2.02e15, RTX_PRO_6000_FLOPS),
                        Precision.FP8, Sourced.of(1.01e15, RTX_PRO_6000_FLOPS),
                        Precision.BF16, Sourced.of(503.8e12, RTX_PRO_6000_FLOPS)),
                Sourced.of(13e-6, "issue 15: ~13 µs latency floor per 8-way allreduce over PCIe without NVLink "
                        + "(replace with nccl-tests or the kernel suite's measurement on the machine)"),
                Sourced.of(63.0e9, "PCIe 5.0 x16 line rate per direction: 32 GT/s × 16 lanes × 128/130 / 8 = "
                        + "63.0 GB/s (upper limit; NCCL over PCIe measures less)"));
    }
}

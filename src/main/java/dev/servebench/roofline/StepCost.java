package dev.servebench.roofline;

/**
 * One forward step on one GPU under tensor parallelism: what it reads, computes and communicates, and the
 * three times. Shared by decode (T = batch tokens, each at context L) and prefill (T = prompt tokens).
 *
 * @param tokens                  tokens processed in the step, T
 * @param expectedExpertsPerLayer expected distinct routed experts per MoE layer, E × (1 − (1 − k/E)^T)
 * @param weightBytesPerGpu       (dense bytes + experts × bytes per expert × MoE layers) / TP
 * @param kvBytesPerGpu           KV-cache bytes read (decode) or written (prefill) per GPU
 * @param flopsPerGpu             (2 × active × T + 4 × attention pairs × layers × attention width) / TP
 * @param collectives             allreduces per step: 2 per layer when TP > 1, else 0
 * @param messageBytes            bytes per rank per allreduce: T × hidden × 2 (bf16 activations)
 * @param memorySeconds           (weight + KV bytes per GPU) / memory bandwidth
 * @param computeSeconds          FLOPs per GPU / peak dense FLOP/s of the model's precision
 * @param communicationSeconds    collectives × (latency + message × 2(n−1)/n / busbw)
 */
public record StepCost(
        double tokens,
        double expectedExpertsPerLayer,
        double weightBytesPerGpu,
        double kvBytesPerGpu,
        double flopsPerGpu,
        int collectives,
        double messageBytes,
        double memorySeconds,
        double computeSeconds,
        double communicationSeconds) {

    /** bf16 activations in the allreduce */
    public static final double ACTIVATION_BYTES = 2;

    static StepCost of(ModelShape m, HardwareShape hw, double tokens, double attentionPairs, double kvBytesTotal) {
        int tp = m.tensorParallel();
        if (tp > hw.gpuCount()) {
            throw new IllegalArgumentException("model " + m.name() + " uses TP = " + tp + " but hardware "
                    + hw.name() + " has " + hw.gpuCount() + " GPUs");
        }
        double experts = m.expectedDistinctExperts(tokens);
        double weightBytes = (m.denseBytes() + experts * m.bytesPerRoutedExpert() * m.moeLayers()) / tp;
        double kvBytes = kvBytesTotal / (m.kvShardedByTp() ? tp : 1);
        double flops = (2 * m.activeParams() * tokens + 4 * attentionPairs * m.layers() * m.attentionWidth()) / tp;
        int collectives = tp > 1 ? 2 * m.layers() : 0;
        double message = tokens * m.hiddenSize() * ACTIVATION_BYTES;
        double comm = collectives == 0 ? 0 : collectives * allreduceSeconds(hw, tp, message);
        return new StepCost(tokens, experts, weightBytes, kvBytes, flops, collectives, message,
                (weightBytes + kvBytes) / hw.memoryBandwidth().value(),
                flops / hw.peakFlops(m.precision()),
                comm);
    }

    /** One ring allreduce of S bytes per rank over n ranks: latency + S × 2(n−1)/n / busbw (nccl-tests). */
    public static double allreduceSeconds(HardwareShape hw, int ranks, double messageBytes) {
        if (ranks < 2) return 0;
        double busbw = hw.busBandwidth().value();
        if (!(busbw > 0)) {
            throw new IllegalArgumentException("hardware " + hw.name() + ": allreduce bus bandwidth must be > 0 for TP > 1");
        }
        return hw.allreduceLatency().value() + messageBytes * 2.0 * (ranks - 1) / ranks / busbw;
    }

    /** The step cannot be faster than its slowest resource: max of the three times (perfect overlap). */
    public double lowerBoundSeconds() {
        return Math.max(memorySeconds, Math.max(computeSeconds, communicationSeconds));
    }

    /** No overlap at all: the sum of the three times. */
    public double additiveSeconds() {
        return memorySeconds + computeSeconds + communicationSeconds;
    }

    /** The largest of the three times (ties: memory, then compute, then communication). */
    public LimitingTerm limitingTerm() {
        if (memorySeconds >= computeSeconds && memorySeconds >= communicationSeconds) return LimitingTerm.MEMORY;
        if (computeSeconds >= communicationSeconds) return LimitingTerm.COMPUTE;
        return LimitingTerm.COMMUNICATION;
    }

    public double seconds(LimitingTerm term) {
        return switch (term) {
            case MEMORY -> memorySeconds;
            case COMPUTE -> computeSeconds;
            case COMMUNICATION -> communicationSeconds;
        };
    }
}

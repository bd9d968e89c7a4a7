package dev.servebench.roofline;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The machine, per GPU, each figure with its source.
 *
 * @param name               a label for tables and errors
 * @param gpuCount           GPUs in the machine (tensor parallelism may use fewer)
 * @param memoryBandwidth    bytes/s per GPU
 * @param denseFlops         dense (no structured sparsity) FLOP/s per GPU per precision
 * @param allreduceLatency   seconds per allreduce collective at the message sizes of decoding (the floor)
 * @param busBandwidth       allreduce bus bandwidth, bytes/s, nccl-tests convention (busbw = algbw × 2(n−1)/n)
 */
public record HardwareShape(
        String name,
        int gpuCount,
        Sourced memoryBandwidth,
        Map<Precision, Sourced> denseFlops,
        Sourced allreduceLatency,
        Sourced busBandwidth) {

    public HardwareShape {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(memoryBandwidth, "memoryBandwidth");
        Objects.requireNonNull(denseFlops, "denseFlops");
        Objects.requireNonNull(allreduceLatency, "allreduceLatency");
        Objects.requireNonNull(busBandwidth, "busBandwidth");
        if (name.isBlank()) throw new IllegalArgumentException("hardware name must not be blank");
        if (gpuCount < 1) throw new IllegalArgumentException("hardware " + name + ": gpuCount must be >= 1, got " + gpuCount);
        if (!(memoryBandwidth.value() > 0)) {
            throw new IllegalArgumentException("hardware " + name + ": memory bandwidth must be > 0 bytes/s");
        }
        if (denseFlops.isEmpty()) {
            throw new IllegalArgumentException("hardware " + name + ": needs the dense FLOP/s of at least one precision");
        }
        denseFlops.forEach((p, f) -> {
            Objects.requireNonNull(p, "precision");
            Objects.requireNonNull(f, "FLOP/s of " + p);
            if (!(f.value() > 0)) {
                throw new IllegalArgumentException("hardware " + name + ": " + p + " FLOP/s must be > 0");
            }
        });
        denseFlops = java.util.Collections.unmodifiableMap(new EnumMap<>(denseFlops));
    }

    /** Peak dense FLOP/s per GPU in this precision; a clear error when the data sheet figure is missing. */
    public double peakFlops(Precision precision) {
        Sourced f = denseFlops.get(precision);
        if (f == null) {
            throw new IllegalArgumentException("hardware " + name + " has no dense FLOP/s for " + precision
                    + " (known: " + denseFlops.keySet() + ")");
        }
        return f.value();
    }
}

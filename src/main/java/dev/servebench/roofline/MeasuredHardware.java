package dev.servebench.roofline;

import java.util.Optional;

/**
 * The hardware figures a run measured itself (the kernel suite: memcpy, MoE GEMM, allreduce), for the
 * {@code measured} entries of a spec's {@code hardware:} section. This is the seam between the roofline and
 * whatever holds the kernel results: {@code kernels.results.KernelMeasuredHardware} reads them from a
 * kernels run's figures.json; a run without kernel results uses {@link #NONE} and its measured entries stay
 * unresolved (the bound is then absent, with the reason). Each value is in SI units and names its source.
 */
public interface MeasuredHardware {

    /** Memory bandwidth per GPU (bytes/s). */
    Optional<Sourced> memoryBandwidth();

    /** Dense FLOP/s per GPU, as the kernel suite's matrix kernel reached it. */
    Optional<Sourced> denseFlops();

    /** Seconds per allreduce of {@code ranks} ranks at the smallest message measured: the latency floor. */
    Optional<Sourced> allreduceLatency(int ranks);

    /** Allreduce bus bandwidth of {@code ranks} ranks (bytes/s, nccl-tests convention). */
    Optional<Sourced> busBandwidth(int ranks);

    /** Where the figures come from, or why there are none: ends a "not resolved" reason. */
    String origin();

    MeasuredHardware NONE = new MeasuredHardware() {
        @Override
        public Optional<Sourced> memoryBandwidth() {
            return Optional.empty();
        }

        @Override
        public Optional<Sourced> denseFlops() {
            return Optional.empty();
        }

        @Override
        public Optional<Sourced> allreduceLatency(int ranks) {
            return Optional.empty();
        }

        @Override
        public Optional<Sourced> busBandwidth(int ranks) {
            return Optional.empty();
        }

        @Override
        public String origin() {
            return "this run has no kernel-suite results";
        }
    };
}

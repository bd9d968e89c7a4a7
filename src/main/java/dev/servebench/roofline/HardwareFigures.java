package dev.servebench.roofline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The machine as a spec describes it: like {@link HardwareShape}, but each figure may be {@code measured},
 * resolved against the kernel suite's results of the run ({@link #resolve}).
 *
 * @param allreduceLatency seconds per collective; {@link Optional#empty()} only for a single GPU
 * @param busBandwidth     bytes/s (nccl-tests busbw); {@link Optional#empty()} only for a single GPU
 */
public record HardwareFigures(String name, int gpuCount, HardwareFigure memoryBandwidth,
        Map<Precision, HardwareFigure> denseFlops, Optional<HardwareFigure> allreduceLatency,
        Optional<HardwareFigure> busBandwidth) {

    static final String SINGLE_GPU = "a single GPU: no collectives";

    public HardwareFigures {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(memoryBandwidth, "memoryBandwidth");
        Objects.requireNonNull(denseFlops, "denseFlops");
        Objects.requireNonNull(allreduceLatency, "allreduceLatency");
        Objects.requireNonNull(busBandwidth, "busBandwidth");
        if (name.isBlank()) throw new IllegalArgumentException("hardware name must not be blank");
        if (gpuCount < 1) throw new IllegalArgumentException("hardware " + name + ": gpuCount must be >= 1, got " + gpuCount);
        if (denseFlops.isEmpty()) {
            throw new IllegalArgumentException("hardware " + name + ": needs the dense FLOP/s of at least one precision");
        }
        if (gpuCount > 1 && (allreduceLatency.isEmpty() || busBandwidth.isEmpty())) {
            throw new IllegalArgumentException("hardware " + name + ": " + gpuCount
                    + " GPUs need the allreduce latency and bus bandwidth");
        }
        denseFlops = Collections.unmodifiableMap(new EnumMap<>(denseFlops));
    }

    /** The hardware as data-sheet figures only: what {@link KnownShapes} and tests hold. */
    public static HardwareFigures of(HardwareShape shape) {
        Map<Precision, HardwareFigure> flops = new EnumMap<>(Precision.class);
        shape.denseFlops().forEach((p, f) -> flops.put(p, new HardwareFigure.Given(f)));
        return new HardwareFigures(shape.name(), shape.gpuCount(), new HardwareFigure.Given(shape.memoryBandwidth()),
                flops, Optional.of(new HardwareFigure.Given(shape.allreduceLatency())),
                Optional.of(new HardwareFigure.Given(shape.busBandwidth())));
    }

    /** Whether any figure is to be taken from the run's kernel results. */
    public boolean anyMeasured() {
        return memoryBandwidth instanceof HardwareFigure.Measured
                || denseFlops.values().stream().anyMatch(f -> f instanceof HardwareFigure.Measured)
                || allreduceLatency.filter(f -> f instanceof HardwareFigure.Measured).isPresent()
                || busBandwidth.filter(f -> f instanceof HardwareFigure.Measured).isPresent();
    }

    /** The shape, or which measured figures {@code measured} lacks. */
    public sealed interface Resolution permits Resolved, Unresolved {
    }

    public record Resolved(HardwareShape shape) implements Resolution {
        public Resolved {
            Objects.requireNonNull(shape, "shape");
        }
    }

    /** @param reason which figures are measured but missing, and where they were looked for */
    public record Unresolved(String reason) implements Resolution {
        public Unresolved {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Every {@code measured} figure replaced by the run's own: memory bandwidth, the matrix kernel's FLOP/s
     * (for each precision marked measured), and the allreduce of {@code ranks} ranks (the model's TP).
     */
    public Resolution resolve(MeasuredHardware measured, int ranks) {
        Objects.requireNonNull(measured, "measured");
        List<String> missing = new ArrayList<>();
        Sourced memory = figure(memoryBandwidth, measured.memoryBandwidth(), "memory bandwidth (memcpy)", missing);
        Map<Precision, Sourced> flops = new EnumMap<>(Precision.class);
        denseFlops.forEach((p, f) -> {
            Sourced s = figure(f, measured.denseFlops(), p + " dense FLOP/s (MoE GEMM)", missing);
            if (s != null) flops.put(p, s);
        });
        Sourced latency = allreduceLatency.map(f -> figure(f, measured.allreduceLatency(ranks),
                ranks + "-rank allreduce latency", missing)).orElse(Sourced.of(0, SINGLE_GPU));
        Sourced busbw = busBandwidth.map(f -> figure(f, measured.busBandwidth(ranks),
                ranks + "-rank allreduce bus bandwidth", missing)).orElse(Sourced.of(0, SINGLE_GPU));
        if (!missing.isEmpty()) {
            return new Unresolved("hardware " + name + ": " + String.join(", ", missing)
                    + (missing.size() == 1 ? " is" : " are") + " to be measured, but " + measured.origin());
        }
        return new Resolved(new HardwareShape(name, gpuCount, memory, flops, latency, busbw));
    }

    private static Sourced figure(HardwareFigure figure, Optional<Sourced> measured, String what, List<String> missing) {
        return switch (figure) {
            case HardwareFigure.Given given -> given.figure();
            case HardwareFigure.Measured m -> {
                if (measured.isEmpty()) missing.add(what);
                yield measured.orElse(null);
            }
        };
    }
}

package dev.servebench.roofline;

import java.util.Objects;

/**
 * A model served on a machine: the spec's {@code model:} and {@code hardware:} sections together, from which
 * each load point's bound follows.
 *
 * @param modelSource where the model's figures come from (model card, config.json)
 */
public record Deployment(ModelShape model, String modelSource, HardwareFigures hardware) {

    public Deployment {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(modelSource, "modelSource");
        if (modelSource.isBlank()) throw new IllegalArgumentException("model " + model.name() + " needs its source");
        Objects.requireNonNull(hardware, "hardware");
        if (model.tensorParallel() > hardware.gpuCount()) {
            throw new IllegalArgumentException("model " + model.name() + " uses tensor parallelism "
                    + model.tensorParallel() + " but hardware " + hardware.name() + " has " + hardware.gpuCount()
                    + " GPU" + (hardware.gpuCount() == 1 ? "" : "s"));
        }
    }

    /** The hardware with its measured figures filled in from {@code measured}, or why they cannot be. */
    public HardwareFigures.Resolution resolve(MeasuredHardware measured) {
        return hardware.resolve(measured, model.tensorParallel());
    }

    /** The decode bound at {@code batch} sequences of {@code context} tokens, or why there is none. */
    public PointBound bound(MeasuredHardware measured, int batch, int context) {
        return switch (resolve(measured)) {
            case HardwareFigures.Resolved resolved ->
                    new PointBound.Bounded(DecodeBound.of(model, resolved.shape(), batch, context));
            case HardwareFigures.Unresolved unresolved -> new PointBound.Unbounded(unresolved.reason());
        };
    }
}

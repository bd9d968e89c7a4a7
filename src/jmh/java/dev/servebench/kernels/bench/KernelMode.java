package dev.servebench.kernels.bench;

import java.util.Locale;

/** How much of the kernel matrix a run measures ({@link KernelPlan}), named as on the command line. */
public enum KernelMode {
    /** The CI-sized run: each target's points once, under three minutes on 2 cores. */
    SMOKE,
    /** The nightly / GPU-runner run: the whole matrix. */
    FULL;

    /** {@code smoke} or {@code full}: command lines, properties and run directory names. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KernelMode parse(String text) {
        for (KernelMode mode : values()) {
            if (mode.label().equals(text)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("kernel mode \"" + text + "\"; expected smoke or full");
    }
}

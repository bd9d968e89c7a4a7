package dev.servebench.kernels.results;

/**
 * One of the numbers to reach, judged on a measured ratio. Reported, never asserted in unit
 * tests: absolute speeds on shared machines are noisy, ratios measured side by side are what we judge.
 */
public record TargetCheck(String name, String point, double measured, double required, boolean met) {

    public static TargetCheck atLeast(String name, String point, double measured, double required) {
        return new TargetCheck(name, point, measured, required, measured >= required);
    }
}

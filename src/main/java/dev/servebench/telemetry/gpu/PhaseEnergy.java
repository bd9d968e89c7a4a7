package dev.servebench.telemetry.gpu;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The energy of a measured phase from its GPU samples: per GPU, power.draw integrated over the sampling window
 * (trapezoids between readings; the first and last reading held to the window's ends), and in all. Beside the
 * speed-of-light bound it tells whether the GPUs were working: a step bound by communication leaves them far
 * below their power limit even at "100 % utilisation". Pure.
 *
 * @param seconds the sampling window, which brackets the measured phase
 */
public record PhaseEnergy(double seconds, List<GpuEnergy> gpus) {

    /**
     * @param joules      power integrated over the window
     * @param meanPowerW  joules / seconds
     * @param powerLimitW the GPU's power.limit; empty when nvidia-smi did not report it
     */
    public record GpuEnergy(int index, double joules, double meanPowerW, OptionalDouble powerLimitW) {
        public GpuEnergy {
            Objects.requireNonNull(powerLimitW, "powerLimitW");
        }

        /** Mean power ÷ power limit; empty without a limit. */
        public OptionalDouble shareOfPowerLimit() {
            return powerLimitW.isPresent() && powerLimitW.getAsDouble() > 0
                    ? OptionalDouble.of(meanPowerW / powerLimitW.getAsDouble()) : OptionalDouble.empty();
        }
    }

    public PhaseEnergy {
        gpus = List.copyOf(gpus);
        if (!(seconds > 0)) throw new IllegalArgumentException("seconds (" + seconds + ") must be > 0");
        if (gpus.isEmpty()) throw new IllegalArgumentException("energy needs at least one GPU with power readings");
    }

    /** Empty when the window is empty or no GPU reported its power: nothing is estimated then. */
    public static Optional<PhaseEnergy> of(GpuTelemetryReport report) {
        Instant start = report.startedAt();
        Instant end = report.stoppedAt();
        double seconds = Duration.between(start, end).toNanos() / 1e9;
        if (!(seconds > 0)) return Optional.empty();
        List<GpuEnergy> gpus = new ArrayList<>();
        for (GpuReport gpu : report.gpus()) {
            List<GpuReading> power = gpu.readings().stream().filter(r -> r.powerDrawW() != null)
                    .filter(r -> !r.at().isBefore(start) && !r.at().isAfter(end)).toList();
            if (power.isEmpty()) continue;
            double joules = power.getFirst().powerDrawW() * secondsBetween(start, power.getFirst().at())
                    + power.getLast().powerDrawW() * secondsBetween(power.getLast().at(), end);
            for (int i = 1; i < power.size(); i++) {
                joules += (power.get(i - 1).powerDrawW() + power.get(i).powerDrawW()) / 2
                        * secondsBetween(power.get(i - 1).at(), power.get(i).at());
            }
            Double limit = gpu.summary().powerLimitW();
            gpus.add(new GpuEnergy(gpu.index(), joules, joules / seconds,
                    limit == null ? OptionalDouble.empty() : OptionalDouble.of(limit)));
        }
        return gpus.isEmpty() ? Optional.empty() : Optional.of(new PhaseEnergy(seconds, gpus));
    }

    public double totalJoules() {
        return gpus.stream().mapToDouble(GpuEnergy::joules).sum();
    }

    /** Output tokens of the phase ÷ the energy of all its GPUs. */
    public OptionalDouble outputTokensPerJoule(OptionalDouble outputTokens) {
        return outputTokens.isPresent() && Double.isFinite(outputTokens.getAsDouble()) && totalJoules() > 0
                ? OptionalDouble.of(outputTokens.getAsDouble() / totalJoules()) : OptionalDouble.empty();
    }

    /** Mean power of all GPUs ÷ the sum of their limits; empty unless every GPU reported its limit. */
    public OptionalDouble shareOfPowerLimit() {
        if (gpus.stream().anyMatch(g -> g.shareOfPowerLimit().isEmpty())) return OptionalDouble.empty();
        double limits = gpus.stream().mapToDouble(g -> g.powerLimitW().getAsDouble()).sum();
        return OptionalDouble.of(totalJoules() / seconds / limits);
    }

    /** One line, e.g. {@code energy 12.3 kJ on 8 GPUs over 30.0 s, 0.52 output tok/J, mean power 41 % of the limit}. */
    public String describe(OptionalDouble outputTokens) {
        OptionalDouble perJoule = outputTokensPerJoule(outputTokens);
        OptionalDouble share = shareOfPowerLimit();
        return String.format(Locale.ROOT, "energy %.1f kJ on %d GPU%s over %.1f s, %s, mean power %s",
                totalJoules() / 1e3, gpus.size(), gpus.size() == 1 ? "" : "s", seconds,
                perJoule.isPresent() ? String.format(Locale.ROOT, "%.3g output tok/J", perJoule.getAsDouble())
                        : "output tokens not measured",
                share.isPresent() ? String.format(Locale.ROOT, "%.0f %% of the power limit", share.getAsDouble() * 100)
                        : String.format(Locale.ROOT, "%.0f W (no power limit reported)", totalJoules() / seconds));
    }

    private static double secondsBetween(Instant a, Instant b) {
        return Duration.between(a, b).toNanos() / 1e9;
    }
}

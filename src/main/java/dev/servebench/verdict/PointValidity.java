package dev.servebench.verdict;

import dev.servebench.metric.MetricId;
import dev.servebench.results.PointMeasurement;
import dev.servebench.record.FailureKind;
import dev.servebench.spec.ValiditySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Whether a measured load point says something about the server: enough requests completed, the
 * requested concurrency was reached, the client kept up, and the server's token counts agree with the
 * stream. Every repeat must pass; the explanation shows the worst one. Pure.
 */
public final class PointValidity {

    /** Above this busy fraction a client event-loop thread, not the server, may set the pace. */
    static final double CLIENT_BUSY_LIMIT = 0.9;

    private PointValidity() {
    }

    /** The conditions, in the order {@link #check} reports them; titles are known before measuring. */
    public enum Condition {
        COMPLETED, ERROR_RATE, CONCURRENCY, DISPATCH_LAG, CLIENT_CPU, TOKEN_COUNTS;

        public String title(ValiditySpec validity, int clientThreads) {
            return switch (this) {
                case COMPLETED -> "completed requests ≥ " + percent(validity.minCompleted());
                case ERROR_RATE -> "error rate ≤ " + percent(1 - validity.minCompleted());
                case CONCURRENCY -> "achieved concurrency ≥ " + percent(validity.minAchievedConcurrency())
                        + " of requested";
                case DISPATCH_LAG -> String.format(Locale.ROOT, "client dispatch lag p99 ≤ %s ms",
                        number(validity.maxDispatchLagP99Ms()));
                case CLIENT_CPU -> String.format(Locale.ROOT, "busiest client event loop < %s busy (%d loops)",
                        percent(CLIENT_BUSY_LIMIT), clientThreads);
                case TOKEN_COUNTS -> "server usage agrees with streamed chunks in ≥ "
                        + percent(1 - validity.maxUsageChunkMismatch()) + " of requests";
            };
        }
    }

    public static List<ValidityCheck> check(PointMeasurement point, ValiditySpec validity, int clientThreads) {
        List<ValidityCheck> checks = new ArrayList<>();
        checks.add(completed(point, validity));
        checks.add(errorRate(point, validity));
        checks.add(concurrency(point, validity));
        checks.add(dispatchLag(point, validity));
        checks.add(clientCpu(point, clientThreads));
        checks.add(tokenCounts(point, validity));
        return checks;
    }

    public static boolean valid(List<ValidityCheck> checks) {
        return checks.stream().allMatch(ValidityCheck::holds);
    }

    private static ValidityCheck completed(PointMeasurement point, ValiditySpec validity) {
        double worst = Double.POSITIVE_INFINITY;
        for (PointMeasurement.Repeat repeat : point.repeats()) {
            worst = Math.min(worst, repeat.summary().value(MetricId.COMPLETED).orElse(0) / point.requested());
        }
        return new ValidityCheck(Condition.COMPLETED.title(validity, 0),
                worst >= validity.minCompleted(), String.format(Locale.ROOT,
                "%s of %d requests completed (worst repeat), at least %s required", percent(worst),
                point.requested(), percent(validity.minCompleted())));
    }

    private static ValidityCheck errorRate(PointMeasurement point, ValiditySpec validity) {
        double allowed = 1 - validity.minCompleted();
        double worst = 0;
        Map<FailureKind, Integer> failures = Map.of();
        for (PointMeasurement.Repeat repeat : point.repeats()) {
            double rate = (double) repeat.summary().failedOutcomes() / point.requested();
            if (rate >= worst) {
                worst = rate;
                failures = repeat.summary().failuresByKind();
            }
        }
        String kinds = failures.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
        return new ValidityCheck(Condition.ERROR_RATE.title(validity, 0), worst <= allowed + 1e-12,
                String.format(Locale.ROOT, "%s of %d requests failed%s (worst repeat), at most %s allowed",
                        percent(worst), point.requested(), kinds.isEmpty() ? "" : " (" + kinds + ")",
                        percent(allowed)));
    }

    private static ValidityCheck concurrency(PointMeasurement point, ValiditySpec validity) {
        String name = Condition.CONCURRENCY.title(validity, 0);
        if (!point.key().capped()) {
            return new ValidityCheck(name, true, "no concurrency cap at " + point.key() + ": nothing to reach");
        }
        int target = Math.min(point.key().concurrency(), point.requested());
        double worst = Double.POSITIVE_INFINITY;
        for (PointMeasurement.Repeat repeat : point.repeats()) {
            worst = Math.min(worst, repeat.summary().value(MetricId.CONCURRENCY).orElse(0));
        }
        return new ValidityCheck(name, worst / target >= validity.minAchievedConcurrency(), String.format(Locale.ROOT,
                "mean requests in flight %.2f of min(cap %d, requests %d) = %d: %s (worst repeat), at least %s required",
                worst, point.key().concurrency(), point.requested(), target, percent(worst / target),
                percent(validity.minAchievedConcurrency())));
    }

    private static ValidityCheck dispatchLag(PointMeasurement point, ValiditySpec validity) {
        double worst = 0;
        for (PointMeasurement.Repeat repeat : point.repeats()) {
            worst = Math.max(worst, repeat.summary().value(MetricId.P99_DISPATCH_LAG_MS).orElse(0));
        }
        return new ValidityCheck(Condition.DISPATCH_LAG.title(validity, 0), worst <= validity.maxDispatchLagP99Ms(),
                String.format(Locale.ROOT, "p99 of (sent − intended send time) = %.3f ms (worst repeat): how late the"
                        + " client sent requests it was due to send", worst));
    }

    private static ValidityCheck clientCpu(PointMeasurement point, int clientThreads) {
        double worst = 0;
        double processCores = 0;
        for (PointMeasurement.Repeat repeat : point.repeats()) {
            worst = Math.max(worst, repeat.clientUsage().busiestEventLoopBusy());
            processCores = Math.max(processCores, repeat.clientUsage().coresUsed());
        }
        return new ValidityCheck(Condition.CLIENT_CPU.title(null, clientThreads), worst < CLIENT_BUSY_LIMIT,
                String.format(Locale.ROOT, "the busiest of the client's %d event-loop threads was on a CPU %s of the"
                        + " time (worst repeat); the whole process used %.2f cores (incl. JIT, GC and any server in"
                        + " the same JVM)", clientThreads, percent(worst), processCores));
    }

    private static ValidityCheck tokenCounts(PointMeasurement point, ValiditySpec validity) {
        double worst = 0;
        int mismatches = 0;
        for (PointMeasurement.Repeat repeat : point.repeats()) {
            double completed = repeat.summary().value(MetricId.COMPLETED).orElse(0);
            double share = completed == 0 ? 0 : repeat.summary().tokenCountMismatches() / completed;
            if (share >= worst) {
                worst = share;
                mismatches = repeat.summary().tokenCountMismatches();
            }
        }
        return new ValidityCheck(Condition.TOKEN_COUNTS.title(validity, 0),
                worst <= validity.maxUsageChunkMismatch(), String.format(Locale.ROOT,
                "%d requests (%s, worst repeat) whose usage.completion_tokens differs from the tokens streamed;"
                        + " at most %s allowed", mismatches, percent(worst), percent(validity.maxUsageChunkMismatch())));
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%s %%", number(fraction * 100));
    }

    static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.3g", value);
    }
}

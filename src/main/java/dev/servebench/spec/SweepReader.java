package dev.servebench.spec;

import dev.servebench.spec.YamlNode.Scalar;
import dev.servebench.spec.YamlNode.ScalarType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** Reads {@code sweep:}: concurrency caps and request rates, crossed. */
final class SweepReader {

    static final List<String> KEYS = List.of("concurrency", "request_rate", "burstiness", "max_duration");

    private SweepReader() {
    }

    /**
     * The sweep, or empty when any of it was wrong (its errors recorded): expectations then cannot be
     * checked against its points, but everything else can.
     */
    static Optional<SweepSpec> read(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "sweep", KEYS, errors);
        if (!fields.has("concurrency") && !fields.has("request_rate")) {
            throw new SpecException(node.position(), "sweep: needs 'concurrency' (a list of caps), 'request_rate'"
                    + " (a list of requests per second) or both");
        }
        int before = errors.count();
        List<Double> caps = fields.optional("concurrency")
                .map(n -> distinct(n, "concurrency", item -> Values.integer(item, 1, Integer.MAX_VALUE), errors))
                .orElse(List.of());
        List<Double> rates = fields.optional("request_rate")
                .map(n -> distinct(n, "request rate", SweepReader::rate, errors))
                .orElse(List.of(Double.POSITIVE_INFINITY));
        double burstiness = errors.read(() -> fields.optional("burstiness").map(Values::positiveNumber).orElse(1.0))
                .orElse(1.0);
        Optional<Duration> maxDuration = errors.read(() -> fields.optional("max_duration").map(Values::duration))
                .orElse(Optional.empty());
        if (errors.count() > before) {
            return Optional.empty();
        }
        return Optional.of(new SweepSpec(caps.stream().map(Double::intValue).toList(), rates, burstiness, maxDuration));
    }

    /**
     * A scalar stands for a list of one; a list must be non-empty and free of repeats. Each item is checked
     * on its own; a bad one is recorded and left out.
     */
    private static List<Double> distinct(YamlNode node, String what, ToDoubleFunction<YamlNode> value,
            SpecErrors errors) {
        List<YamlNode> items = node instanceof YamlNode.Sequence sequence ? sequence.items() : List.of(node);
        if (items.isEmpty()) {
            errors.add(Values.expected(node, "at least one " + what));
            return List.of();
        }
        List<Double> values = new ArrayList<>();
        List<YamlNode> valueNodes = new ArrayList<>();
        for (YamlNode item : items) {
            Optional<Double> v = errors.read(() -> value.applyAsDouble(item));
            if (v.isEmpty()) {
                continue;
            }
            int earlier = values.indexOf(v.get());
            if (earlier >= 0) {
                errors.add(Values.error(item, "duplicate " + what + " " + Values.plain(v.get()) + " (already at "
                        + valueNodes.get(earlier).path() + ")"));
                continue;
            }
            values.add(v.get());
            valueNodes.add(item);
        }
        return values;
    }

    /** Requests per second > 0, or {@code inf} (all requests due at once). */
    static double rate(YamlNode node) {
        if (node instanceof Scalar scalar && scalar.type() == ScalarType.STRING && scalar.text().equals("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        if (node instanceof Scalar scalar && scalar.type() == ScalarType.FLOAT
                && scalar.number() == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        if (node instanceof Scalar scalar && (scalar.type() == ScalarType.INTEGER || scalar.type() == ScalarType.FLOAT)
                && Double.isFinite(scalar.number()) && scalar.number() > 0) {
            return scalar.number();
        }
        throw Values.expected(node, "a request rate (a number > 0, or inf)");
    }
}

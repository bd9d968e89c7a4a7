package dev.servebench.spec;

import dev.servebench.spec.YamlNode.Scalar;
import dev.servebench.spec.YamlNode.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** Reads {@code sweep:}: concurrency caps and request rates, crossed. */
final class SweepReader {

    static final List<String> KEYS = List.of("concurrency", "request_rate", "burstiness");

    private SweepReader() {
    }

    static SweepSpec read(YamlNode node) {
        Fields fields = Fields.of(node, "sweep", KEYS);
        if (!fields.has("concurrency") && !fields.has("request_rate")) {
            throw new SpecException(node.position(), "sweep: needs 'concurrency' (a list of caps), 'request_rate'"
                    + " (a list of requests per second) or both");
        }
        List<Double> caps = fields.optional("concurrency")
                .map(n -> distinct(n, "concurrency", item -> Values.integer(item, 1, Integer.MAX_VALUE)))
                .orElse(List.of());
        List<Double> rates = fields.optional("request_rate")
                .map(n -> distinct(n, "request rate", SweepReader::rate))
                .orElse(List.of(Double.POSITIVE_INFINITY));
        double burstiness = fields.optional("burstiness")
                .map(Values::positiveNumber).orElse(1.0);
        return new SweepSpec(caps.stream().map(Double::intValue).toList(), rates, burstiness);
    }

    /** A scalar stands for a list of one; a list must be non-empty and free of repeats. */
    private static List<Double> distinct(YamlNode node, String what, ToDoubleFunction<YamlNode> value) {
        List<YamlNode> items = node instanceof YamlNode.Sequence sequence ? sequence.items() : List.of(node);
        if (items.isEmpty()) {
            throw Values.expected(node, "at least one " + what);
        }
        List<Double> values = new ArrayList<>();
        for (YamlNode item : items) {
            double v = value.applyAsDouble(item);
            int earlier = values.indexOf(v);
            if (earlier >= 0) {
                throw Values.error(item, "duplicate " + what + " " + Values.plain(v) + " (already at "
                        + items.get(earlier).path() + ")");
            }
            values.add(v);
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

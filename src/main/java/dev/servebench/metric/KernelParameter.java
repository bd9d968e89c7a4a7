package dev.servebench.metric;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One JMH {@code @Param} of a kernel benchmark, as a spec's kernel point names it ({@code bytes=4MiB},
 * {@code layout=linear}). Values are kept in JMH's own spelling ({@code 4194304}), so a point matches the
 * parameters a result file records; sizes may be written with a binary suffix and are shown with one.
 *
 * @param choices the values a {@link Kind#CHOICE} parameter takes; empty for the other kinds
 */
public record KernelParameter(String name, Kind kind, List<String> choices) {

    /** What a value may be. */
    public enum Kind {
        /** A byte count: an integer >= 1, optionally with KiB, MiB or GiB. */
        SIZE,
        /** An integer >= 1 (threads, ranks, rows, tokens). */
        COUNT,
        /** A MoE shape HxIxExk. */
        SHAPE,
        /** One of {@link #choices()}. */
        CHOICE
    }

    private static final Pattern SIZE_TEXT = Pattern.compile("(\\d{1,12})(KiB|MiB|GiB)?");
    private static final Pattern COUNT_TEXT = Pattern.compile("[1-9]\\d{0,8}");
    private static final Pattern SHAPE_TEXT = Pattern.compile("[1-9]\\d*x[1-9]\\d*x[1-9]\\d*x[1-9]\\d*");

    public KernelParameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        choices = List.copyOf(choices);
        if ((kind == Kind.CHOICE) == choices.isEmpty()) {
            throw new IllegalArgumentException(name + ": a CHOICE parameter lists its values, other kinds none");
        }
    }

    static KernelParameter size(String name) {
        return new KernelParameter(name, Kind.SIZE, List.of());
    }

    static KernelParameter count(String name) {
        return new KernelParameter(name, Kind.COUNT, List.of());
    }

    static KernelParameter shape(String name) {
        return new KernelParameter(name, Kind.SHAPE, List.of());
    }

    static KernelParameter choice(String name, String... values) {
        return new KernelParameter(name, Kind.CHOICE, List.of(values));
    }

    /** {@code written} in JMH's spelling, or empty when it is not a value of this parameter. */
    public Optional<String> canonical(String written) {
        return switch (kind) {
            case SIZE -> {
                Matcher m = SIZE_TEXT.matcher(written);
                if (!m.matches()) {
                    yield Optional.empty();
                }
                long shift = m.group(2) == null ? 0 : switch (m.group(2)) {
                    case "KiB" -> 10;
                    case "MiB" -> 20;
                    default -> 30;
                };
                long number = Long.parseLong(m.group(1));
                yield number >= 1 && number <= Long.MAX_VALUE >> shift ? Optional.of(Long.toString(number << shift))
                        : Optional.empty();
            }
            case COUNT -> COUNT_TEXT.matcher(written).matches() ? Optional.of(written) : Optional.empty();
            case SHAPE -> SHAPE_TEXT.matcher(written).matches() ? Optional.of(written) : Optional.empty();
            case CHOICE -> choices.contains(written) ? Optional.of(written) : Optional.empty();
        };
    }

    /** What a value must look like, for error messages. */
    public String expected() {
        return switch (kind) {
            case SIZE -> "a byte count (an integer >= 1, optionally with KiB, MiB or GiB, e.g. 4MiB)";
            case COUNT -> "an integer >= 1";
            case SHAPE -> "a MoE shape HxIxExk, e.g. 6144x256x256x8";
            case CHOICE -> "one of " + String.join(", ", choices);
        };
    }

    /** A canonical value as a reader wants it: sizes with the largest binary suffix that divides them. */
    public String display(String canonical) {
        if (kind != Kind.SIZE) {
            return canonical;
        }
        long bytes = Long.parseLong(canonical);
        for (String unit : List.of("GiB", "MiB", "KiB")) {
            int shift = switch (unit) {
                case "GiB" -> 30;
                case "MiB" -> 20;
                default -> 10;
            };
            if (bytes >= 1L << shift && bytes % (1L << shift) == 0) {
                return (bytes >> shift) + unit;
            }
        }
        return Long.toString(bytes);
    }
}

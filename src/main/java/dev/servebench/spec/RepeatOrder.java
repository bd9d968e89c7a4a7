package dev.servebench.spec;

import java.util.Locale;

/**
 * In what order a spec's repeats are measured.
 *
 * <ul>
 *   <li>{@code sequential} (default): all repeats of a load point, then the next point; each point is
 *       judged as soon as it is measured.</li>
 *   <li>{@code interleaved}: round robin, repeat 1 of every point, then repeat 2 of every point, and so
 *       on. A point's repeats then span the whole run instead of one stretch of it, so a slow minute of a
 *       shared machine lands in a few repeats of every point (where the gate's test sees it as noise)
 *       instead of in all repeats of one point (where it looks like a change of that point). Judging waits
 *       for the last round.</li>
 * </ul>
 */
public enum RepeatOrder {
    SEQUENTIAL,
    INTERLEAVED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RepeatOrder parse(String label) {
        for (RepeatOrder order : values()) {
            if (order.label().equals(label.trim().toLowerCase(Locale.ROOT))) {
                return order;
            }
        }
        throw new IllegalArgumentException("repeat_order (" + label + ") must be sequential or interleaved");
    }
}

package dev.servebench.verdict;

import java.util.Objects;

/**
 * One condition a load point must meet for its numbers to count (docs/specs.md, "validity").
 *
 * @param name        test name, e.g. {@code completed requests ≥ 99 %}
 * @param holds       whether every repeat met it
 * @param explanation the measured numbers, worst repeat first
 */
public record ValidityCheck(String name, boolean holds, String explanation) {

    public ValidityCheck {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(explanation, "explanation");
    }
}

package dev.servebench.report.html;

import java.util.List;
import java.util.Objects;

/**
 * The environment fingerprint as labelled facts, in display order (GPUs, driver, server, model, commit,
 * spec hash...).
 */
public record EnvironmentView(List<Fact> facts) {

    public EnvironmentView {
        facts = List.copyOf(facts);
        if (facts.isEmpty()) {
            throw new IllegalArgumentException("an environment needs at least one fact");
        }
    }

    /** One labelled value; an empty value is shown as "(not recorded)". */
    public record Fact(String name, String value) {
        public Fact {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a fact needs a name");
            }
            Objects.requireNonNull(value, "value of " + name);
        }
    }
}

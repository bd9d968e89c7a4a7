package dev.servebench.testserver;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * Chooses the {@link Plan} for each request. An {@code x-script: <name>} header picks a named plan (an unknown
 * name is answered 400); otherwise {@code byIndex} is asked with the request's 0-based arrival index, and
 * {@code defaultPlan} is used when it answers null. Every POST to a generation endpoint takes the next index,
 * including requests later answered 400; {@code /health} and {@code /v1/models} take none. {@code byIndex}
 * runs on event loop threads, concurrently when the server has several.
 *
 * @param defaultPlan         plan for requests nothing else claims
 * @param named               plans selectable by the {@code x-script} header
 * @param byIndex             plan by arrival index, or null for "no opinion"
 * @param model               model name echoed in responses and listed by {@code /v1/models}
 * @param createdEpochSeconds the {@code created} field; fixed so responses are byte-for-byte reproducible
 * @param recordEmissions     whether per-request {@link EmissionLog}s are kept (turn off for long benchmarks)
 */
public record Script(Plan defaultPlan, Map<String, Plan> named, LongFunction<Plan> byIndex, String model,
                     long createdEpochSeconds, boolean recordEmissions) {

    public static final String HEADER = "x-script";
    public static final String DEFAULT_MODEL = "servebench-model";
    /** 2023-11-14T22:13:20Z: any fixed value keeps rendered bytes stable across runs. */
    public static final long DEFAULT_CREATED = 1_700_000_000L;

    public Script {
        Objects.requireNonNull(defaultPlan, "defaultPlan");
        Objects.requireNonNull(byIndex, "byIndex");
        named = Map.copyOf(named);
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model ('" + model + "') must not be blank");
        }
        if (createdEpochSeconds < 0) {
            throw new IllegalArgumentException("createdEpochSeconds (" + createdEpochSeconds + ") must be >= 0");
        }
    }

    /** Every request answered by {@code plan}, emissions recorded. */
    public static Script of(Plan plan) {
        return builder().defaultPlan(plan).build();
    }

    /** The benchmark's loopback server: zero latency, cached responses, nothing recorded. */
    public static Script fullSpeed() {
        return builder().recordEmissions(false).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The plan for a request, or null when {@code header} names no plan. */
    Plan select(long index, String header) {
        if (header != null) {
            return named.get(header);
        }
        Plan chosen = byIndex.apply(index);
        return chosen != null ? chosen : defaultPlan;
    }

    public static final class Builder {
        private Plan defaultPlan = Plan.fullSpeed();
        private final Map<String, Plan> named = new LinkedHashMap<>();
        private LongFunction<Plan> byIndex = i -> null;
        private String model = DEFAULT_MODEL;
        private long createdEpochSeconds = DEFAULT_CREATED;
        private boolean recordEmissions = true;

        private Builder() {
        }

        public Builder defaultPlan(Plan plan) {
            this.defaultPlan = plan;
            return this;
        }

        /** A plan selected by {@code x-script: name}. */
        public Builder named(String name, Plan plan) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(plan, "plan");
            named.put(name, plan);
            return this;
        }

        /** Plan by 0-based arrival index; return null to fall back to the default plan. */
        public Builder byIndex(LongFunction<Plan> byIndex) {
            this.byIndex = byIndex;
            return this;
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        public Builder createdEpochSeconds(long createdEpochSeconds) {
            this.createdEpochSeconds = createdEpochSeconds;
            return this;
        }

        public Builder recordEmissions(boolean recordEmissions) {
            this.recordEmissions = recordEmissions;
            return this;
        }

        public Script build() {
            return new Script(defaultPlan, named, byIndex, model, createdEpochSeconds, recordEmissions);
        }
    }
}

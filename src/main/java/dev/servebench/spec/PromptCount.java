package dev.servebench.spec;

/**
 * Measured requests per load point. A count, not a duration: every run of a spec then sends the same
 * requests, and the metrics are defined over that fixed set (as in SGLang's {@code --num-prompts}), whereas
 * a time box would make the request count, and the tail it cuts off, depend on the server's speed.
 * The scaled form keeps a wide concurrency sweep affordable: a fixed count large enough for
 * concurrency 1024 takes hours at concurrency 1.
 */
public sealed interface PromptCount permits PromptCount.Fixed, PromptCount.Scaled {

    /** Requests measured at {@code point}. */
    int at(LoadPointKey point);

    /** The same count at every point. */
    record Fixed(int prompts) implements PromptCount {
        public Fixed {
            if (prompts < 1) {
                throw new IllegalArgumentException("prompts (" + prompts + ") must be >= 1");
            }
        }

        @Override
        public int at(LoadPointKey point) {
            return prompts;
        }
    }

    /**
     * {@code perConcurrency} requests per unit of the point's concurrency cap, clamped to {@code [min, max]};
     * only for sweeps whose every point has a cap.
     */
    record Scaled(int perConcurrency, int min, int max) implements PromptCount {
        public Scaled {
            if (perConcurrency < 1 || min < 1 || max < min) {
                throw new IllegalArgumentException("need perConcurrency >= 1 and 1 <= min <= max, got " + perConcurrency
                        + ", " + min + ", " + max);
            }
        }

        @Override
        public int at(LoadPointKey point) {
            if (!point.capped()) {
                throw new IllegalArgumentException("a prompt count per concurrency needs a capped point, got " + point);
            }
            long scaled = (long) perConcurrency * point.concurrency();
            return Math.clamp(scaled, min, max);
        }
    }
}

package dev.servebench.kernels.bench;

import java.util.Optional;

/**
 * How much re-measuring a kernel run may spend on the lines of a spec whose interval straddles their limit
 * ({@link KernelRemeasure}): at most {@code rounds} rounds of one fresh fork per figure of such a line, and no
 * fork started once {@code seconds} have passed since the re-measuring began (so it ends within that plus one
 * fork, about 8 s on 2 cores).
 *
 * @param rounds  rounds after the first measurement; 0: none
 * @param seconds the time after which no more forks start
 */
public record RemeasureBudget(int rounds, int seconds) {

    /** Rounds unless told: two, so the two sides' extra forks run in both orders (ABBA). */
    public static final int DEFAULT_ROUNDS = 2;

    /**
     * Seconds unless told: 80, so the main job's worst case (every line straddling: 8 figures, about 6.5 s a fork)
     * grows by at most about 90 s.
     */
    public static final int DEFAULT_SECONDS = 80;

    public static final String ROUNDS_PROPERTY = "servebench.kernels.remeasure.rounds";
    public static final String SECONDS_PROPERTY = "servebench.kernels.remeasure.seconds";

    public static final RemeasureBudget DEFAULT = new RemeasureBudget(DEFAULT_ROUNDS, DEFAULT_SECONDS);

    public RemeasureBudget {
        if (rounds < 0) {
            throw new IllegalArgumentException("re-measuring rounds " + rounds + "; expected 0 or more");
        }
        if (seconds < 0) {
            throw new IllegalArgumentException("re-measuring seconds " + seconds + "; expected 0 or more");
        }
    }

    /**
     * The budget {@value #ROUNDS_PROPERTY} and {@value #SECONDS_PROPERTY} set, each defaulting.
     *
     * @throws IllegalArgumentException a property that is not a whole number, with its name
     */
    public static RemeasureBudget fromProperties() {
        return new RemeasureBudget(property(ROUNDS_PROPERTY).orElse(DEFAULT_ROUNDS),
                property(SECONDS_PROPERTY).orElse(DEFAULT_SECONDS));
    }

    private static Optional<Integer> property(String name) {
        String text = System.getProperty(name);
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(text.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + name + "=" + text + ": expected a whole number");
        }
    }

    @Override
    public String toString() {
        return rounds + (rounds == 1 ? " round" : " rounds") + ", " + seconds + " s";
    }
}

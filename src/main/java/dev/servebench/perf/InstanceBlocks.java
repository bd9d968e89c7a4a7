package dev.servebench.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The planned rounds split into {@code instances} blocks of consecutive rounds, as even as they divide, each
 * measured on freshly started servers: two instances of one build differ by a few per cent for as long as
 * they run (where the weights and caches landed in memory), and a comparison whose A and B were each started
 * once measures that instance difference in every round, where no number of rounds averages it out. Fresh
 * servers per block let the rounds sample it instead (docs/gate.md, "Server instances"). Rounds added after the
 * planned ones run on the last block's servers.
 */
public record InstanceBlocks(int rounds, int instances) {

    /**
     * Instances per side unless told otherwise: at the default 24 rounds, 6 blocks of 4 rounds, as measured on the
     * 2-core VM (docs/gate.md, "Server instances": A/A and 15 % acceptance met, no slower than one start per side).
     */
    public static final int DEFAULT = 6;

    /** Fewer rounds get fewer instances rather than shorter blocks than the measured 4 rounds. */
    public static final int MIN_ROUNDS_PER_BLOCK = 4;

    public InstanceBlocks {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be >= 1");
        }
        if (instances < 1 || instances > rounds) {
            throw new IllegalArgumentException("instances (" + instances + ") must be in 1.." + rounds
                    + " (one block of rounds per instance, at least one round each)");
        }
    }

    /** {@link #DEFAULT} instances, at most one per {@link #MIN_ROUNDS_PER_BLOCK} rounds, at least one. */
    public static int byDefault(int rounds) {
        return Math.max(1, Math.min(DEFAULT, rounds / MIN_ROUNDS_PER_BLOCK));
    }

    /** The first round of each block, in order; the first is round 1. */
    public List<Integer> firstRounds() {
        List<Integer> first = new ArrayList<>();
        for (int block = 0; block < instances; block++) {
            first.add(1 + (int) ((long) block * rounds / instances));
        }
        return first;
    }

    /** Whether fresh servers are started before {@code round}. */
    public boolean startsBlock(int round) {
        return round <= rounds && firstRounds().contains(round);
    }

    /** E.g. {@code rounds 1–6, 7–12, 13–18, 19–24}. */
    public String describe() {
        List<Integer> first = firstRounds();
        List<String> ranges = new ArrayList<>();
        for (int block = 0; block < first.size(); block++) {
            int last = block + 1 < first.size() ? first.get(block + 1) - 1 : rounds;
            ranges.add(first.get(block) == last ? String.valueOf(last) : first.get(block) + "–" + last);
        }
        return (rounds == 1 ? "round " : "rounds ") + ranges.stream().collect(Collectors.joining(", "));
    }
}

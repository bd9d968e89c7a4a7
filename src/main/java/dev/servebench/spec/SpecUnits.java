package dev.servebench.spec;

import dev.servebench.metric.Unit;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The unit words an expectation may write after its number. The first of each list is the unit's own
 * symbol ({@link Unit#symbol()}); the switch is exhaustive so a new unit cannot go without a spelling.
 */
final class SpecUnits {

    private SpecUnits() {
    }

    static List<String> accepted(Unit unit) {
        return switch (unit) {
            case TOKENS_PER_SECOND -> List.of("tok/s", "tokens/s");
            case REQUESTS_PER_SECOND -> List.of("req/s", "requests/s");
            case MILLISECONDS -> List.of("ms");
            case SECONDS -> List.of("s");
            case TOKENS -> List.of("tokens");
            case REQUESTS -> List.of("requests");
            case GIGABYTES_PER_SECOND -> List.of("GB/s");
            case GIGAFLOPS_PER_SECOND -> List.of("GFLOP/s", "GFLOPS");
            case MICROSECONDS -> List.of("µs", "us");
        };
    }

    static Optional<Unit> parse(String text) {
        return Arrays.stream(Unit.values()).filter(u -> accepted(u).contains(text)).findFirst();
    }
}

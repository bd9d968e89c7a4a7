package dev.servebench.results;

import dev.servebench.load.ConnectionCounts;
import dev.servebench.load.LoadPointCut;
import dev.servebench.results.SuccessShare;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a load point's summary states beside its metrics: whether it is valid, whether it was cut, what the
 * client did with its connections, what was warmed before the clock started, and notes on how the run was
 * set up (e.g. an assumed token-id range).
 */
public record PointContext(SuccessShare validity, Optional<LoadPointCut> cut, ConnectionCounts connections,
                           List<String> warmed, List<String> notes) {
    public PointContext {
        Objects.requireNonNull(validity, "validity");
        Objects.requireNonNull(cut, "cut");
        Objects.requireNonNull(connections, "connections");
        warmed = List.copyOf(warmed);
        notes = List.copyOf(notes);
    }
}

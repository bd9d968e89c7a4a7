package dev.servebench.perf;

import dev.servebench.load.LoadPoint;
import dev.servebench.load.LoadProgress;

/**
 * What a front end shows while a spec is measured: a progress display per measured phase, warnings, and each
 * measured repeat (the console summary of {@code servebench run}). The runner writes its files either way.
 */
public interface RunListener {

    /** Shows nothing. */
    RunListener NONE = new RunListener() {
    };

    /** The progress display of one measured phase at {@code point}. */
    default LoadProgress progress(LoadPoint point) {
        return LoadProgress.NONE;
    }

    /** Something the user should know that does not stop the run (e.g. every warm-up request failed). */
    default void warning(String line) {
    }

    /** A repeat was measured and its files written. */
    default void measured(MeasuredRepeat repeat) {
    }
}

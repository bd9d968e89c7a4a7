package dev.servebench.baseline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Holm's step-down correction (Holm 1979) over the comparisons of one gate: a gate makes dozens of
 * comparisons, and without it one would fail on noise far more often than alpha. Sorted by p-value, the
 * k-th smallest (from 0) is held to alpha / (m − k) until the first one that misses its threshold; it and
 * every larger p-value keep that threshold. An outcome whose threshold differs from the alpha it was judged
 * at is judged again at its threshold, so its message shows what it was held to.
 */
public final class Holm {

    /** Judges comparison {@code index} again at significance level {@code alpha}. */
    @FunctionalInterface
    public interface Rejudge<T extends GateCase> {
        T at(int index, double alpha);
    }

    private Holm() {
    }

    /** Outcomes without a p-value (not tested) are left as they are and do not count towards m. */
    public static <T extends GateCase> List<T> correct(List<T> outcomes, double alpha, Rejudge<T> rejudge) {
        List<Integer> tested = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).pValue().isPresent()) {
                tested.add(i);
            }
        }
        tested.sort(Comparator.comparingDouble(i -> outcomes.get(i).pValue().getAsDouble()));
        int m = tested.size();
        double failedThreshold = Double.NaN;
        List<T> corrected = new ArrayList<>(outcomes);
        for (int rank = 0; rank < m; rank++) {
            int index = tested.get(rank);
            T outcome = outcomes.get(index);
            double threshold = alpha / (m - rank);
            if (Double.isNaN(failedThreshold) && outcome.pValue().getAsDouble() > threshold) {
                failedThreshold = threshold; // step-down: this and every larger p-value keep their null
            }
            double held = Double.isNaN(failedThreshold) ? threshold : failedThreshold;
            if (outcome.alpha() != held) {
                corrected.set(index, rejudge.at(index, held));
            }
        }
        return corrected;
    }
}

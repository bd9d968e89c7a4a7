package dev.servebench.baseline;

/**
 * A detected change in a series: the first index of the new regime, the significance of the split when it was
 * found, and the means of the segments directly before and after it (between neighbouring change points).
 *
 * @param index         first index after the change, in [1, n - 1]
 * @param pValue        permutation p-value of the split, in (0, 1]
 * @param meanBefore    mean of the segment ending at {@code index - 1}
 * @param meanAfter     mean of the segment starting at {@code index}
 * @param relativeShift (meanAfter - meanBefore) / |meanBefore|; infinite when meanBefore is 0
 */
public record ChangePoint(int index, double pValue, double meanBefore, double meanAfter, double relativeShift) {

    public ChangePoint {
        if (index < 1) {
            throw new IllegalArgumentException("index (" + index + ") must be >= 1");
        }
        if (!(pValue > 0 && pValue <= 1)) {
            throw new IllegalArgumentException("p-value (" + pValue + ") must be in (0, 1]");
        }
    }
}

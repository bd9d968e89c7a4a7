package dev.servebench.metric;

/** One metric list (seconds) with a lazily sorted copy, so the four order statistics sort it once. */
final class Sample {

    static final Sample EMPTY = new Sample(new double[0]);

    private final double[] values;
    private double[] sorted;

    /** Takes ownership of {@code values}; callers pass a fresh array. */
    Sample(double[] values) {
        this.values = values;
    }

    int size() {
        return values.length;
    }

    /** The values in list order; order matters to the pairwise sum. Callers must not modify it. */
    double[] values() {
        return values;
    }

    double[] sorted() {
        if (sorted == null) {
            sorted = NumpyStats.sortedCopy(values);
        }
        return sorted;
    }
}

package dev.servebench.telemetry.gpu;

/** Count, sum and maximum of the available values of one field: exact whatever the samples kept. */
final class RunningStat {

    private long count;
    private double sum;
    private double max = Double.NEGATIVE_INFINITY;

    void add(Double value) {
        if (value == null) {
            return;
        }
        count++;
        sum += value;
        max = Math.max(max, value);
    }

    /** Null when no sample had the value. */
    Double mean() {
        return count == 0 ? null : sum / count;
    }

    /** Null when no sample had the value. */
    Double max() {
        return count == 0 ? null : max;
    }
}

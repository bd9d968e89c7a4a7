package dev.servebench.metric;

/**
 * A metric list read front to back, as often as needed: a per-request array, or a per-event list that is
 * recomputed from the stored events on every pass instead of being held (128 million ITLs would take 1 GB
 * as doubles). Every statistic in {@link SeriesStats} and {@link RankSelect} only ever reads in list order.
 */
interface DoubleSeries {

    long size();

    /** A fresh pass over the values in list order; exactly {@link #size()} calls to {@code next()} are allowed. */
    Pass pass();

    interface Pass {
        double next();
    }

    static DoubleSeries of(double[] values) {
        return new DoubleSeries() {
            @Override
            public long size() {
                return values.length;
            }

            @Override
            public Pass pass() {
                return new Pass() {
                    private int i;

                    @Override
                    public double next() {
                        return values[i++];
                    }
                };
            }
        };
    }
}

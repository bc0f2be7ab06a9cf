package dev.starling.bench;

import java.util.Arrays;
import java.util.List;

/** Times a query: one unmeasured warm-up run, then the median of {@code runs} measured runs. */
final class WarmTimer {
    private final int runs;

    WarmTimer(int runs) {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1, got " + runs);
        }
        this.runs = runs;
    }

    interface Run {
        void run() throws Exception;
    }

    /** Median wall time in milliseconds. */
    double medianMillis(Run query) throws Exception {
        query.run();
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            query.run();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        return median(ms);
    }

    /**
     * Median wall times in milliseconds of several engines running the same query: one unmeasured
     * run of each, then {@code runs} rounds timing each in turn, so that none is measured while
     * code the others compiled first is still interpreted for it, nor after the caches have warmed
     * to it alone.
     */
    double[] interleavedMedianMillis(List<Run> engines) throws Exception {
        for (Run engine : engines) {
            engine.run();
        }
        double[][] ms = new double[engines.size()][runs];
        for (int r = 0; r < runs; r++) {
            for (int e = 0; e < engines.size(); e++) {
                long start = System.nanoTime();
                engines.get(e).run();
                ms[e][r] = (System.nanoTime() - start) / 1e6;
            }
        }
        double[] medians = new double[engines.size()];
        for (int e = 0; e < engines.size(); e++) {
            medians[e] = median(ms[e]);
        }
        return medians;
    }

    /** The median of {@code values} (sorted in place), the mean of the middle two for an even count; 0 for none. */
    static double median(double[] values) {
        int n = values.length;
        if (n == 0) {
            return 0;
        }
        Arrays.sort(values);
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
}

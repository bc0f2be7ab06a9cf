package dev.starling.bench;

import java.util.Arrays;

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

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
        Arrays.sort(ms);
        return runs % 2 == 1 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    }
}

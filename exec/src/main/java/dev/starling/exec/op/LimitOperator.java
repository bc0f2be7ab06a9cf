package dev.starling.exec.op;

import dev.starling.exec.pipeline.Operator;
import dev.starling.exec.vector.Batch;
import java.util.function.Consumer;

/**
 * OFFSET/LIMIT over a stream. The workers of one query share the row budget, so the rows kept are
 * an arbitrary subset of an unordered input and the first ones of an ordered (single-worker) input.
 */
public final class LimitOperator implements Operator {
    private final Budget budget;

    public LimitOperator(Budget budget) {
        this.budget = budget;
    }

    /** The rows still to skip and to keep, shared by the workers. */
    public static final class Budget {
        private long toSkip;
        private long toKeep;

        /** {@code limit < 0}: no limit. */
        public Budget(long offset, long limit) {
            this.toSkip = offset;
            this.toKeep = limit < 0 ? Long.MAX_VALUE : limit;
        }

        /** Claims rows of a batch of {@code n}: returns {skip, keep}. */
        synchronized long[] claim(int n) {
            long skip = Math.min(toSkip, n);
            toSkip -= skip;
            long keep = Math.min(toKeep, n - skip);
            toKeep -= keep;
            return new long[] {skip, keep};
        }

        synchronized boolean exhausted() {
            return toKeep == 0;
        }
    }

    @Override
    public void process(Batch in, Consumer<Batch> out) {
        Operator.emit(apply(in), out);
    }

    private Batch apply(Batch in) {
        long[] claim = budget.claim(in.rows());
        int skip = (int) claim[0];
        int keep = (int) claim[1];
        if (keep == 0) {
            return null;
        }
        return skip == 0 && keep == in.rows() ? in : in.slice(skip, skip + keep);
    }

    @Override
    public boolean finished() {
        return budget.exhausted();
    }
}

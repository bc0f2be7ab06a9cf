package dev.starling.exec;

import dev.starling.exec.plan.PlanNode;

/** Runs a physical plan on the CPU backend, morsel-driven over {@code threads} worker threads. */
public final class Executor {
    private final int threads;

    public Executor(int threads) {
        this.threads = threads;
    }

    public QueryResult collect(PlanNode plan) {
        throw new UnsupportedOperationException("TODO " + threads + plan);
    }
}

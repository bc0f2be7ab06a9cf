package dev.starling.exec.plan;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The optimizer's row estimates for the nodes of one plan, kept beside the plan so that the plan
 * contract stays free of them: EXPLAIN shows them, and with them what each breaker's state will
 * take. Nodes are told apart by identity (equal nodes in two places of a plan may see different
 * rows).
 */
public final class PlanEstimates {
    public static final PlanEstimates NONE = new PlanEstimates(Map.of());

    private final Map<PlanNode, Double> rows;

    private PlanEstimates(Map<PlanNode, Double> rows) {
        this.rows = rows;
    }

    /** The rows {@code node} is estimated to produce, if it was estimated. */
    public OptionalDouble rows(PlanNode node) {
        Double r = rows.get(node);
        return r == null ? OptionalDouble.empty() : OptionalDouble.of(r);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects estimates while a plan is built, bottom up. */
    public static final class Builder {
        private final Map<PlanNode, Double> rows = new IdentityHashMap<>();

        /**
         * Estimates {@code rows} for {@code top} and for the nodes below it that have none yet: the
         * nodes one optimizer operator became (an aggregation and the projection that completes
         * it) produce its rows, and its inputs were estimated before it.
         */
        public Builder estimate(PlanNode top, double estimate) {
            if (rows.putIfAbsent(top, estimate) == null) {
                for (PlanNode input : top.inputs()) {
                    if (!rows.containsKey(input) && sameRows(top)) {
                        estimate(input, estimate);
                    }
                }
            }
            return this;
        }

        /** Whether a node keeps every row of its input, so an input made with it has its rows. */
        private static boolean sameRows(PlanNode node) {
            return node instanceof ProjectNode;
        }

        public PlanEstimates build() {
            return new PlanEstimates(new IdentityHashMap<>(rows));
        }
    }
}

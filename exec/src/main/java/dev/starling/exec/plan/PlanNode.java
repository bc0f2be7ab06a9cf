package dev.starling.exec.plan;

import java.util.List;

/**
 * Starling's physical plan, independent of Calcite and of the backend that runs it. The planner
 * builds it from its physical RelNodes; the CPU backend (and later the GPU backend) splits it into
 * pipelines at the breakers: hash-join builds, aggregation and sort.
 */
public sealed interface PlanNode
        permits ScanNode, FilterNode, ProjectNode, HashJoinNode, AggregateNode, SortNode, LimitNode,
                ValuesNode, UnionNode {

    List<Field> output();

    List<PlanNode> inputs();

    /** One line describing this node, for EXPLAIN (children are printed by the caller). */
    String describe();

    /** Whether {@code node} scans one table, filtered and projected. */
    static boolean scansOneTable(PlanNode node) {
        return switch (node) {
            case ScanNode s -> true;
            case FilterNode f -> scansOneTable(f.input());
            case ProjectNode p -> scansOneTable(p.input());
            default -> false;
        };
    }
}

package dev.starling.planner;

import dev.starling.exec.plan.PlanNode;
import java.util.ArrayList;
import java.util.List;

/** The nodes of a plan of one kind, top-down. */
public final class PlanNodes {
    private PlanNodes() { }

    public static <T extends PlanNode> List<T> all(PlanNode plan, Class<T> type) {
        List<T> out = new ArrayList<>();
        collect(plan, type, out);
        return out;
    }

    private static <T extends PlanNode> void collect(PlanNode node, Class<T> type, List<T> out) {
        if (type.isInstance(node)) {
            out.add(type.cast(node));
        }
        node.inputs().forEach(in -> collect(in, type, out));
    }
}

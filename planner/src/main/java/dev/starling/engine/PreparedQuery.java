package dev.starling.engine;

import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.PlanNode;
import java.util.List;

/**
 * A planned query: its result columns and either the physical plan that produces them or, for
 * EXPLAIN, the lines of the plan it explains. Plans refer to the table versions they were planned
 * against, so a prepared query keeps answering over the data as it was when prepared.
 */
public record PreparedQuery(String sql, List<Field> fields, PlanNode plan, List<String> explainLines) {

    public boolean isExplain() {
        return explainLines != null;
    }
}

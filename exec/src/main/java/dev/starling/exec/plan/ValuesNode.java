package dev.starling.exec.plan;

import java.util.List;

/**
 * Literal rows. Values follow the storage conventions: Long for INTEGER, BIGINT, DATE (days) and
 * DECIMAL (scaled), Double, Boolean, String, or null.
 */
public record ValuesNode(List<Field> output, List<List<Object>> rows) implements PlanNode {
    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Values " + rows.size() + " rows";
    }
}

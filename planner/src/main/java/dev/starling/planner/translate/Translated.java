package dev.starling.planner.translate;

import dev.starling.exec.plan.PlanNode;
import java.util.Arrays;

/**
 * A translated operator: the exec plan node and where each output field of the Calcite operator
 * lies in that node's columns. {@code values[i]} is the column holding field i; {@code codes[i]}
 * the column holding field i's dense code, or -1. Joins and code columns move fields around, and
 * carrying the layout avoids a projection after every join.
 */
public record Translated(PlanNode node, int[] values, int[] codes) {

    /** A node whose first {@code fields} columns are the operator's fields in order, with no codes. */
    public static Translated identity(PlanNode node, int fields) {
        int[] values = new int[fields];
        Arrays.setAll(values, i -> i);
        int[] codes = new int[fields];
        Arrays.fill(codes, -1);
        return new Translated(node, values, codes);
    }

    public int width() {
        return node.output().size();
    }

    public boolean isIdentity() {
        if (values.length != width()) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] != i) {
                return false;
            }
        }
        return true;
    }
}

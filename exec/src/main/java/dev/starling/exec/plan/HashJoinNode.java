package dev.starling.exec.plan;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import java.util.ArrayList;
import java.util.List;

/**
 * Equi-join: the build side is materialized into a lookup structure, the probe side streams.
 * Output: probe columns then build columns (INNER, LEFT; build columns nullable for LEFT), or
 * probe columns only (SEMI, ANTI). {@code residual} (may be null) is a further condition over
 * that combined row (probe columns then build columns, also for SEMI/ANTI) that a match must pass.
 * With {@code dense}, the single build key is a {@code ROW_ID} of a table and the probe key its
 * dense foreign-key code, so the lookup is an array indexed by code sized {@code denseRange}.
 * With {@code markProbe} (SEMI and ANTI only) the sides swap their work, not their meaning: the
 * probe side is materialized and looked up, the build side streams through it marking the probe
 * rows it matches, and the probe rows are emitted by mark; the plan chooses it when the probe side
 * is the smaller. A dense {@code markProbe} join has the probe side's {@code ROW_ID} as its key
 * and the build side's dense codes referring to it.
 */
public record HashJoinNode(PlanNode probe, PlanNode build, JoinKind kind, int[] probeKeys, int[] buildKeys,
                           Expr residual, boolean dense, long denseRange, boolean markProbe) implements PlanNode {

    public HashJoinNode {
        if (markProbe && kind != JoinKind.SEMI && kind != JoinKind.ANTI) {
            throw new IllegalArgumentException("only a SEMI or ANTI join can mark its probe side, not " + kind);
        }
    }

    public HashJoinNode(PlanNode probe, PlanNode build, JoinKind kind, int[] probeKeys, int[] buildKeys,
                        Expr residual, boolean dense, long denseRange) {
        this(probe, build, kind, probeKeys, buildKeys, residual, dense, denseRange, false);
    }

    @Override
    public List<Field> output() {
        List<Field> out = new ArrayList<>(probe.output());
        if (kind == JoinKind.INNER || kind == JoinKind.LEFT) {
            for (Field f : build.output()) {
                out.add(kind == JoinKind.LEFT ? new Field(f.name(), f.type(), true) : f);
            }
        }
        return out;
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(probe, build);
    }

    @Override
    public String describe() {
        List<String> probeLabels = Field.labels(probe.output());
        List<String> buildLabels = Field.labels(build.output());
        List<String> on = new ArrayList<>();
        for (int k = 0; k < probeKeys.length; k++) {
            on.add(probeLabels.get(probeKeys[k]) + " = " + buildLabels.get(buildKeys[k]));
        }
        List<String> both = new ArrayList<>(probeLabels);
        both.addAll(buildLabels);
        if (residual != null) {
            on.add(ExprText.of(residual, both));
        }
        return (dense ? "DenseJoin " : "HashJoin ") + kind + (markProbe ? " marking probe rows" : "")
                + (on.isEmpty() ? "" : " on " + String.join(" AND ", on));
    }
}

package dev.starling.planner.rel;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.LimitNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A hash join: one input is built into a lookup structure, the other probes it. The build side is
 * the right input for LEFT joins, the left one for RIGHT joins (run as LEFT joins with the inputs
 * swapped) and the smaller one for INNER joins, except that a join of a dense foreign key with the
 * primary key of a scanned dimension always builds the dimension, as an array. SEMI and ANTI joins
 * keep left rows, and build the smaller side: the right one into a lookup probed by the left rows,
 * or the left one into a lookup that the right rows stream through, marking the left rows they
 * match (an array by row id when the right keys are dense codes of the left table).
 */
public final class StarlingHashJoin extends Join implements StarlingRel {
    /** A join with no equality keys is a nested loop over the build side; only a small one is acceptable. */
    static final double MAX_CROSS_JOIN_BUILD_ROWS = 10_000;

    public StarlingHashJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                            JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, java.util.Set.of(), joinType);
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode condition, RelNode left, RelNode right, JoinRelType joinType,
                     boolean semiJoinDone) {
        return new StarlingHashJoin(getCluster(), traitSet, left, right, condition, joinType);
    }

    /** The equality keys usable by a hash table, and everything else as a residual condition. */
    private record Keys(List<Integer> left, List<Integer> right, RexNode residual) { }

    private Keys keys() {
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        List<Boolean> filterNulls = new ArrayList<>();
        List<RexNode> rest = new ArrayList<>();
        RelOptUtil.splitJoinCondition(getLeft(), getRight(), getCondition(), leftKeys, rightKeys, filterNulls, rest);
        RexBuilder rex = getCluster().getRexBuilder();
        int leftCount = getLeft().getRowType().getFieldCount();
        List<Integer> l = new ArrayList<>();
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < leftKeys.size(); i++) {
            RexNode leftRef = rex.makeInputRef(getLeft(), leftKeys.get(i));
            RexNode rightRef = rex.makeInputRef(getRight().getRowType().getFieldList().get(rightKeys.get(i)).getType(),
                    leftCount + rightKeys.get(i));
            // A hash key never matches NULL, so a null-safe key over nullable columns stays a condition.
            if (!filterNulls.get(i) && (leftRef.getType().isNullable() || rightRef.getType().isNullable())) {
                rest.add(RelOptUtil.isDistinctFrom(rex, leftRef, rightRef, true));
            } else {
                l.add(leftKeys.get(i));
                r.add(rightKeys.get(i));
            }
        }
        return new Keys(l, r, RexUtil.composeConjunction(rex, rest));
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        return translate(translator, codes, ImmutableBitSet.of());
    }

    /**
     * Code-only fields of the probe side pass on to it unless the residual condition reads them; an
     * inner dense join's probe key is code-only too, its value taken from the dimension's key.
     */
    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes, ImmutableBitSet codeOnly) {
        Keys keys = keys();
        RelMetadataQuery mq = getCluster().getMetadataQuery();
        JoinKind kind = switch (getJoinType()) {
            case INNER -> JoinKind.INNER;
            case LEFT, RIGHT -> JoinKind.LEFT;
            case SEMI -> JoinKind.SEMI;
            case ANTI -> JoinKind.ANTI;
            default -> throw StarlingSqlException.unsupported(getJoinType() + " JOIN");
        };
        boolean denseLeftProbe = keys.left.size() == 1 && getJoinType() != JoinRelType.RIGHT
                && isDense(getLeft(), keys.left.get(0), getRight(), keys.right.get(0));
        boolean denseRightProbe = !denseLeftProbe && keys.left.size() == 1
                && (getJoinType() == JoinRelType.INNER || getJoinType() == JoinRelType.RIGHT)
                && isDense(getRight(), keys.right.get(0), getLeft(), keys.left.get(0));
        boolean existence = kind == JoinKind.SEMI || kind == JoinKind.ANTI;
        boolean markProbe = existence && !denseLeftProbe && !keys.left.isEmpty()
                && mq.getRowCount(getLeft()) < mq.getRowCount(getRight());
        boolean denseMark = markProbe && keys.left.size() == 1
                && isDense(getRight(), keys.right.get(0), getLeft(), keys.left.get(0));
        boolean dense = denseLeftProbe || denseRightProbe || denseMark;
        boolean swap = switch (getJoinType()) {
            case RIGHT -> true;
            case INNER -> dense ? denseRightProbe : mq.getRowCount(getLeft()) < mq.getRowCount(getRight());
            default -> false;
        };
        RelNode probeRel = swap ? getRight() : getLeft();
        RelNode buildRel = swap ? getLeft() : getRight();
        List<Integer> probeKeys = swap ? keys.right : keys.left;
        List<Integer> buildKeys = swap ? keys.left : keys.right;
        // A SEMI or ANTI join on no key whose condition reads only the build side asks only whether
        // a build row passes it: a correlated key the optimizer pinned to one constant on both
        // sides leaves such a join (NOT EXISTS (... WHERE l_partkey = p_partkey) under p_partkey = 7).
        int leftCount = getLeft().getRowType().getFieldCount();
        boolean anyRow = existence && probeKeys.isEmpty()
                && RelOptUtil.InputFinder.bits(keys.residual).asList().stream().allMatch(f -> f >= leftCount);
        if (probeKeys.isEmpty() && !anyRow) {
            requireSmall(buildRel, mq);
        }

        int fieldCount = leftCount + getRight().getRowType().getFieldCount();
        ImmutableBitSet.Builder leftCodes = ImmutableBitSet.builder();
        ImmutableBitSet.Builder rightCodes = ImmutableBitSet.builder();
        for (int f : codes) {
            if (f < leftCount) {
                leftCodes.set(f);
            } else {
                rightCodes.set(f - leftCount);
            }
        }
        ImmutableBitSet.Builder probeCodes = swap ? rightCodes : leftCodes;
        ImmutableBitSet.Builder buildCodes = swap ? leftCodes : rightCodes;
        if (dense) {
            probeCodes.set(probeKeys.get(0));
            buildCodes.set(buildKeys.get(0));
        }
        ImmutableBitSet probeCodeOnly = probeCodeOnly(codeOnly, keys, swap, leftCount, probeKeys,
                dense && kind == JoinKind.INNER ? probeKeys.get(0) : -1);
        Translated probe = translator.translate(probeRel, probeCodes.build(), probeCodeOnly);
        Translated built = translator.translate(buildRel, buildCodes.build());
        Translated build = anyRow ? firstPassing(translator, built, keys.residual, leftCount) : built;

        // Where each field of the Calcite join row (left fields, then right) lies in probe ++ build.
        Translated left = swap ? build : probe;
        Translated right = swap ? probe : build;
        int leftOffset = swap ? probe.width() : 0;
        int rightOffset = swap ? 0 : probe.width();
        int[] values = new int[fieldCount];
        int[] codeColumns = new int[fieldCount];
        for (int i = 0; i < fieldCount; i++) {
            Translated side = i < leftCount ? left : right;
            int field = i < leftCount ? i : i - leftCount;
            int offset = i < leftCount ? leftOffset : rightOffset;
            values[i] = side.values()[field] < 0 ? -1 : side.values()[field] + offset;
            codeColumns[i] = side.codes()[field] < 0 ? -1 : side.codes()[field] + offset;
        }
        if (dense && kind == JoinKind.INNER && probe.values()[probeKeys.get(0)] < 0) {
            // The probe scan read only the foreign key's code; a match has the dimension's equal key,
            // which lies among the build's columns, after the probe's, whichever side each was.
            values[probeKeys.get(0) + (swap ? leftCount : 0)] = build.values()[buildKeys.get(0)] + probe.width();
        }
        List<Field> combined = new ArrayList<>(probe.node().output());
        combined.addAll(build.node().output());
        Expr residual = keys.residual.isAlwaysTrue() || anyRow ? null : translator.expr(keys.residual, values, combined);

        int[] probeColumns;
        int[] buildColumns;
        long denseRange = 0;
        if (denseMark) {
            probeColumns = new int[] {required(probe.codes()[probeKeys.get(0)], "probe row id")};
            buildColumns = new int[] {required(build.codes()[buildKeys.get(0)], "build key code")};
            denseRange = KeyOrigin.ofBuild(probeRel, probeKeys.get(0)).orElseThrow().table().rowCount();
        } else if (dense) {
            probeColumns = new int[] {required(probe.codes()[probeKeys.get(0)], "probe key code")};
            buildColumns = new int[] {required(build.codes()[buildKeys.get(0)], "build row id")};
            denseRange = KeyOrigin.ofBuild(buildRel, buildKeys.get(0)).orElseThrow().table().rowCount();
        } else {
            probeColumns = probeKeys.stream().mapToInt(k -> probe.values()[k]).toArray();
            buildColumns = buildKeys.stream().mapToInt(k -> build.values()[k]).toArray();
        }
        HashJoinNode node = new HashJoinNode(probe.node(), build.node(), kind, probeColumns, buildColumns, residual,
                dense, denseRange, markProbe);
        if (existence) {
            return new Translated(node, probe.values(), probe.codes());
        }
        return new Translated(node, values, codeColumns);
    }

    /**
     * The probe side's fields whose values nothing here reads: those the consumer wants as codes
     * only, and {@code denseKey} (a probe field, or -1), unless a hash key or the residual condition reads them.
     */
    private ImmutableBitSet probeCodeOnly(ImmutableBitSet codeOnly, Keys keys, boolean swap, int leftCount,
                                          List<Integer> probeKeys, int denseKey) {
        int probeStart = swap ? leftCount : 0;
        int probeCount = (swap ? getRight() : getLeft()).getRowType().getFieldCount();
        ImmutableBitSet residual = RelOptUtil.InputFinder.bits(keys.residual);
        ImmutableBitSet.Builder out = ImmutableBitSet.builder();
        for (int f : codeOnly) {
            if (f >= probeStart && f < probeStart + probeCount) {
                out.set(f - probeStart);
            }
        }
        if (denseKey >= 0) {
            out.set(denseKey);
        }
        ImmutableBitSet.Builder kept = ImmutableBitSet.builder();
        for (int f : out.build()) {
            if (!residual.get(f + probeStart) && (f == denseKey || !probeKeys.contains(f))) {
                kept.set(f);
            }
        }
        return kept.build();
    }

    /**
     * The first row of the build side {@code build} (the join's right input, after {@code
     * leftCount} left fields) that passes {@code condition}, which reads only the build side.
     */
    private static Translated firstPassing(PlanTranslator translator, Translated build, RexNode condition,
                                           int leftCount) {
        PlanNode passing = build.node();
        if (!condition.isAlwaysTrue()) {
            int[] columns = new int[leftCount + build.values().length];
            java.util.Arrays.fill(columns, -1);
            System.arraycopy(build.values(), 0, columns, leftCount, build.values().length);
            passing = new FilterNode(passing, translator.expr(condition, columns, passing.output()));
        }
        return new Translated(new LimitNode(passing, 0, 1), build.values(), build.codes());
    }

    private static boolean isDense(RelNode probe, int probeKey, RelNode build, int buildKey) {
        Optional<KeyOrigin> fk = KeyOrigin.ofProbe(probe, probeKey);
        Optional<KeyOrigin> pk = KeyOrigin.ofBuild(build, buildKey);
        return fk.isPresent() && pk.isPresent() && fk.get().isDenseReferenceTo(pk.get());
    }

    private static void requireSmall(RelNode build, RelMetadataQuery mq) {
        Double max = mq.getMaxRowCount(build);
        if ((max == null || max > 1) && mq.getRowCount(build) > MAX_CROSS_JOIN_BUILD_ROWS) {
            throw StarlingSqlException.unsupported(
                    "join without an equality condition (a non-equi or cross join) over a large input");
        }
    }

    private static int required(int column, String what) {
        if (column < 0) {
            throw new IllegalStateException("dense join planned but its " + what + " is not available");
        }
        return column;
    }
}

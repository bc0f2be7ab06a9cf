package dev.starling.planner.optimize;

import dev.starling.planner.rel.RuleConfig;
import dev.starling.planner.schema.StarlingTable;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;

/**
 * {@code P ⋈ (X ⋈ Y)} becomes {@code (P ⋈ X) ⋈ Y} when the larger input P (the probe) holds a
 * dense foreign key to the primary key of a table scanned in X: P then looks that table up in an
 * array instead of probing a hash table built from a join, and Y is joined to the (usually fewer)
 * matching rows afterwards. Where X is a join itself, the rule applies again to {@code P ⋈ X}.
 * Cost-based join ordering does not know dense joins are cheaper, and likes to join small
 * dimensions to each other first.
 */
final class DenseProbeRotationRule extends RelRule<RuleConfig> {
    static final RelOptRule INSTANCE = RuleConfig.of("StarlingDenseProbeRotation",
            b -> b.operand(LogicalJoin.class).anyInputs(), DenseProbeRotationRule::new).toRule();

    private DenseProbeRotationRule(RuleConfig config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin top = call.rel(0);
        if (top.getJoinType() != JoinRelType.INNER) {
            return;
        }
        RelMetadataQuery mq = call.getMetadataQuery();
        for (int side = 0; side < 2; side++) {
            RelNode probe = top.getInput(side);
            if (!(top.getInput(1 - side).stripped() instanceof LogicalJoin inner) || inner.getJoinType() != JoinRelType.INNER
                    || mq.getRowCount(probe) < mq.getRowCount(inner)) {
                continue;
            }
            int innerOffset = side == 0 ? probe.getRowType().getFieldCount() : 0;
            int probeOffset = side == 0 ? 0 : inner.getRowType().getFieldCount();
            int innerLeftWidth = inner.getLeft().getRowType().getFieldCount();
            for (int xSide = 0; xSide < 2; xSide++) {
                RelNode x = inner.getInput(xSide);
                RelNode y = inner.getInput(1 - xSide);
                if (looksUp(inner, 1 - xSide, xSide)) {
                    continue;
                }
                int xOffset = innerOffset + (xSide == 0 ? 0 : innerLeftWidth);
                int yOffset = innerOffset + (xSide == 0 ? innerLeftWidth : 0);
                Layout layout = new Layout(top.getRowType().getFieldCount(), probe, probeOffset, x, xOffset, y, yOffset);
                List<RexNode> conjuncts = new ArrayList<>();
                RelOptUtil.decomposeConjunction(layout.remap(top.getCondition()), conjuncts);
                RelOptUtil.decomposeConjunction(layout.remap(RexUtil.shift(inner.getCondition(), innerOffset)), conjuncts);
                if (conjuncts.stream().anyMatch(c -> isDenseKey(c, layout))) {
                    call.transformTo(rotate(call.builder(), top, layout, conjuncts));
                    return;
                }
            }
        }
    }

    /** Where each field of the original join lies in the rotated one: P's fields, then X's, then Y's. */
    private record Layout(int[] newIndex, RelNode probe, RelNode x, RelNode y) {
        Layout(int width, RelNode probe, int probeOffset, RelNode x, int xOffset, RelNode y, int yOffset) {
            this(new int[width], probe, x, y);
            int p = probe.getRowType().getFieldCount();
            int nx = x.getRowType().getFieldCount();
            for (int i = 0; i < p; i++) {
                newIndex[probeOffset + i] = i;
            }
            for (int i = 0; i < nx; i++) {
                newIndex[xOffset + i] = p + i;
            }
            for (int i = 0; i < y.getRowType().getFieldCount(); i++) {
                newIndex[yOffset + i] = p + nx + i;
            }
        }

        int probeWidth() {
            return probe.getRowType().getFieldCount();
        }

        int lowerWidth() {
            return probeWidth() + x.getRowType().getFieldCount();
        }

        RexNode remap(RexNode rex) {
            return rex.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return new RexInputRef(newIndex[ref.getIndex()], ref.getType());
                }
            });
        }
    }

    private static RelNode rotate(RelBuilder b, LogicalJoin top, Layout layout, List<RexNode> conjuncts) {
        List<RexNode> lower = new ArrayList<>();
        List<RexNode> upper = new ArrayList<>();
        for (RexNode c : conjuncts) {
            boolean withinLower = RelOptUtil.InputFinder.bits(c).asList().stream().allMatch(i -> i < layout.lowerWidth());
            (withinLower ? lower : upper).add(c);
        }
        b.push(layout.probe()).push(layout.x()).join(JoinRelType.INNER, lower)
                .push(layout.y()).join(JoinRelType.INNER, upper);
        List<RexNode> original = new ArrayList<>();
        for (int i : layout.newIndex()) {
            original.add(b.field(i));
        }
        return b.project(original, top.getRowType().getFieldNames(), true).build();
    }

    /** {@code p = x} of P's dense foreign key and X's primary key it references. */
    private static boolean isDenseKey(RexNode conjunct, Layout layout) {
        if (!(equalityOfFields(conjunct) instanceof int[] fields)) {
            return false;
        }
        int p = Math.min(fields[0], fields[1]);
        int x = Math.max(fields[0], fields[1]);
        return p < layout.probeWidth() && x >= layout.probeWidth() && x < layout.lowerWidth()
                && isDenseKey(layout.probe(), p, layout.x(), x - layout.probeWidth());
    }

    /**
     * Whether join {@code join}'s input {@code probeSide} already looks its input {@code dimSide}
     * up by a dense foreign key. Rotating that dimension under another probe P would only move the
     * lookup from one side to the other, and with P and that side alike (two orders joined through
     * their customer) the rotation would undo itself for ever.
     */
    private static boolean looksUp(LogicalJoin join, int probeSide, int dimSide) {
        int leftWidth = join.getLeft().getRowType().getFieldCount();
        for (RexNode c : RelOptUtil.conjunctions(join.getCondition())) {
            if (equalityOfFields(c) instanceof int[] fields) {
                int probeField = side(fields[0], leftWidth) == probeSide ? fields[0] : fields[1];
                int dimField = probeField == fields[0] ? fields[1] : fields[0];
                if (side(probeField, leftWidth) == probeSide && side(dimField, leftWidth) == dimSide
                        && isDenseKey(join.getInput(probeSide), probeField - (probeSide == 0 ? 0 : leftWidth),
                        join.getInput(dimSide), dimField - (dimSide == 0 ? 0 : leftWidth))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static int side(int field, int leftWidth) {
        return field < leftWidth ? 0 : 1;
    }

    /** The two fields an equality of two fields compares, else null. */
    private static int[] equalityOfFields(RexNode conjunct) {
        return conjunct.getKind() == SqlKind.EQUALS
                && ((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef a
                && ((RexCall) conjunct).getOperands().get(1) instanceof RexInputRef b
                ? new int[] {a.getIndex(), b.getIndex()} : null;
    }

    /** Whether field {@code p} of {@code probe} is a dense foreign key to the primary key that field {@code x} of {@code dim} is. */
    private static boolean isDenseKey(RelNode probe, int p, RelNode dim, int x) {
        Optional<StoredColumn> fk = StoredColumn.of(probe, p, true);
        Optional<StoredColumn> pk = StoredColumn.of(dim, x, true);
        if (fk.isEmpty() || pk.isEmpty() || !fk.get().column().isDenseCoded()) {
            return false;
        }
        Column.DenseReference ref = fk.get().column().denseReference();
        Table table = pk.get().table();
        String key = pk.get().column().name();
        return ref.table().equals(table.name()) && ref.keyColumn().equals(key) && table.schema().primaryKey().equals(List.of(key));
    }

    /**
     * The stored column a field reads, following plain column references down to a scan, as the
     * dense join's translation does: through filters and projections, and on the probe side through joins.
     */
    private record StoredColumn(Table table, Column column) {
        static Optional<StoredColumn> of(RelNode rel, int field, boolean throughJoins) {
            return switch (rel.stripped()) {
                case TableScan scan -> Optional.ofNullable(scan.getTable().unwrap(StarlingTable.class))
                        .map(t -> new StoredColumn(t.table(), t.table().column(field)));
                case Filter f -> of(f.getInput(), field, throughJoins);
                case Project p -> p.getProjects().get(field) instanceof RexInputRef ref
                        ? of(p.getInput(), ref.getIndex(), throughJoins) : Optional.empty();
                case Join j when throughJoins -> {
                    int left = j.getLeft().getRowType().getFieldCount();
                    yield field < left ? of(j.getLeft(), field, true) : of(j.getRight(), field - left, true);
                }
                default -> Optional.empty();
            };
        }
    }
}

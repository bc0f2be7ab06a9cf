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
        if (conjunct.getKind() != SqlKind.EQUALS
                || !(((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef a)
                || !(((RexCall) conjunct).getOperands().get(1) instanceof RexInputRef b)) {
            return false;
        }
        int p = Math.min(a.getIndex(), b.getIndex());
        int x = Math.max(a.getIndex(), b.getIndex());
        if (p >= layout.probeWidth() || x < layout.probeWidth() || x >= layout.lowerWidth()) {
            return false;
        }
        Optional<StoredColumn> fk = StoredColumn.of(layout.probe(), p, true);
        Optional<StoredColumn> pk = StoredColumn.of(layout.x(), x - layout.probeWidth(), true);
        if (fk.isEmpty() || pk.isEmpty() || !fk.get().column().isDenseCoded()) {
            return false;
        }
        Column.DenseReference ref = fk.get().column().denseReference();
        Table dim = pk.get().table();
        String key = pk.get().column().name();
        return ref.table().equals(dim.name()) && ref.keyColumn().equals(key) && dim.schema().primaryKey().equals(List.of(key));
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

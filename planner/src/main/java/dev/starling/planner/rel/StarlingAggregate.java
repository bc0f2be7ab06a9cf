package dev.starling.planner.rel;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.AggregateNode.Function;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.planner.translate.LiteralValues;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import dev.starling.planner.type.TypeMapping;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/** Grouped or scalar aggregation with a single grouping set. */
public final class StarlingAggregate extends Aggregate implements StarlingRel {

    public StarlingAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
                             List<AggregateCall> aggCalls) {
        super(cluster, traits, List.of(), input, groupSet, null, aggCalls);
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
                          List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new StarlingAggregate(getCluster(), traitSet, input, groupSet, aggCalls);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        Translated in = translator.translate(getInput(), ImmutableBitSet.of());
        int[] keys = getGroupSet().asList().stream().mapToInt(k -> in.values()[k]).toArray();
        List<String> names = getRowType().getFieldNames();
        List<AggCall> calls = new ArrayList<>();
        boolean rewritten = false;
        for (int i = 0; i < getAggCallList().size(); i++) {
            AggregateCall call = getAggCallList().get(i);
            SqlKind kind = call.getAggregation().getKind();
            rewritten |= kind == SqlKind.SUM0 || kind == SqlKind.LITERAL_AGG;
            if (kind == SqlKind.LITERAL_AGG) {
                continue;
            }
            int argument = call.getArgList().isEmpty() ? -1 : in.values()[call.getArgList().get(0)];
            int filter = call.filterArg < 0 ? -1 : in.values()[call.filterArg];
            calls.add(new AggCall(function(call), argument, call.isDistinct(), filter, names.get(keys.length + i),
                    TypeMapping.toStarling(call.getType()), call.getType().isNullable()));
        }
        PlanNode node = new AggregateNode(in.node(), keys, calls);
        if (rewritten) {
            node = completeRewrittenCalls(node, keys.length);
        }
        return Translated.identity(node, getRowType().getFieldCount());
    }

    private static Function function(AggregateCall call) {
        if (call.getArgList().size() > 1) {
            throw StarlingSqlException.unsupported("aggregate " + call.getAggregation().getName()
                    + " with " + call.getArgList().size() + " arguments");
        }
        if (call.getCollation() != null && !call.getCollation().getFieldCollations().isEmpty()) {
            throw StarlingSqlException.unsupported("aggregate " + call.getAggregation().getName() + " WITHIN GROUP");
        }
        return switch (call.getAggregation().getKind()) {
            case COUNT -> call.getArgList().isEmpty() ? Function.COUNT_STAR : Function.COUNT;
            case SUM, SUM0 -> Function.SUM;
            case MIN -> Function.MIN;
            case MAX -> Function.MAX;
            case AVG -> Function.AVG;
            case SINGLE_VALUE -> throw StarlingSqlException.unsupported(
                    "scalar subquery that may return more than one row (add an aggregate or LIMIT 1)");
            default -> throw StarlingSqlException.unsupported("aggregate function " + call.getAggregation().getName());
        };
    }

    /**
     * Calcite's rewrites introduce two calls the executor does not have: $SUM0, a SUM that yields 0
     * instead of NULL over no rows, becomes COALESCE(SUM, 0); LITERAL_AGG, which yields its literal
     * for every group (NOT IN and EXISTS rewrites use it to mark matches), becomes that literal.
     */
    private PlanNode completeRewrittenCalls(PlanNode aggregate, int keyCount) {
        List<Field> fields = aggregate.output();
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < keyCount; i++) {
            exprs.add(ref(fields, i));
        }
        int column = keyCount;
        for (AggregateCall call : getAggCallList()) {
            DataType type = TypeMapping.toStarling(call.getType());
            exprs.add(switch (call.getAggregation().getKind()) {
                case LITERAL_AGG -> new Literal(LiteralValues.value((RexLiteral) call.rexList.get(0), type), type);
                case SUM0 -> ExprLowering.lower(new Call(Call.Op.COALESCE, List.of(ref(fields, column++), zero(type)), type, false));
                default -> ref(fields, column++);
            });
        }
        return new ProjectNode(aggregate, exprs, getRowType().getFieldNames());
    }

    private static Expr ref(List<Field> fields, int column) {
        Field f = fields.get(column);
        return new ColumnRef(column, f.type(), f.nullable());
    }

    private static Literal zero(DataType type) {
        return new Literal(LiteralValues.zero(type), type);
    }
}

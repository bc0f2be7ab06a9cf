package dev.starling.planner.rel;

import dev.starling.engine.StarlingSqlException;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
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
        List<AggCall> calls = new ArrayList<>();
        boolean anySum0 = false;
        for (AggregateCall call : getAggCallList()) {
            Function function = function(call);
            anySum0 |= call.getAggregation().getKind() == org.apache.calcite.sql.SqlKind.SUM0;
            int argument = call.getArgList().isEmpty() ? -1 : in.values()[call.getArgList().get(0)];
            int filter = call.filterArg < 0 ? -1 : in.values()[call.filterArg];
            String name = getRowType().getFieldNames().get(keys.length + calls.size());
            calls.add(new AggCall(function, argument, call.isDistinct(), filter, name,
                    TypeMapping.toStarling(call.getType()), call.getType().isNullable()));
        }
        PlanNode node = new AggregateNode(in.node(), keys, calls);
        if (anySum0) {
            node = sum0AsCoalesce(node, keys.length);
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

    /** $SUM0 (which Calcite's rewrites introduce) is a SUM that yields 0 instead of NULL over no rows. */
    private PlanNode sum0AsCoalesce(PlanNode aggregate, int keyCount) {
        List<Field> fields = aggregate.output();
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            Expr ref = new ColumnRef(i, f.type(), f.nullable());
            boolean sum0 = i >= keyCount && getAggCallList().get(i - keyCount).getAggregation().getKind()
                    == org.apache.calcite.sql.SqlKind.SUM0;
            exprs.add(sum0 ? new Call(Call.Op.COALESCE, List.of(ref, zero(f.type())), f.type(), false) : ref);
        }
        return new ProjectNode(aggregate, exprs, fields.stream().map(Field::name).toList());
    }

    private static Literal zero(DataType type) {
        return new Literal(LiteralValues.zero(type), type);
    }
}

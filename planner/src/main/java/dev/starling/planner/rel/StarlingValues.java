package dev.starling.planner.rel;

import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.planner.translate.LiteralValues;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import dev.starling.planner.type.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.util.ImmutableBitSet;
import com.google.common.collect.ImmutableList;

public final class StarlingValues extends Values implements StarlingRel {

    public StarlingValues(RelOptCluster cluster, RelDataType rowType, ImmutableList<ImmutableList<RexLiteral>> tuples,
                          RelTraitSet traits) {
        super(cluster, rowType, tuples, traits);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StarlingValues(getCluster(), getRowType(), getTuples(), traitSet);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        List<RelDataTypeField> fields = getRowType().getFieldList();
        List<Field> output = fields.stream()
                .map(f -> new Field(f.getName(), TypeMapping.toStarling(f.getType()), f.getType().isNullable()))
                .toList();
        List<List<Object>> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : getTuples()) {
            List<Object> row = new ArrayList<>();
            for (int i = 0; i < tuple.size(); i++) {
                row.add(LiteralValues.value(tuple.get(i), output.get(i).type()));
            }
            rows.add(row);
        }
        return Translated.identity(new ValuesNode(output, rows), output.size());
    }
}

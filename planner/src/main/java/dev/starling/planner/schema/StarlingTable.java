package dev.starling.planner.schema;

import dev.starling.planner.type.TypeMapping;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelReferentialConstraint;
import org.apache.calcite.rel.RelReferentialConstraintImpl;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.IntPair;

/**
 * One version of a storage table as Calcite sees it: columns, row count, primary key and foreign
 * keys. It is translatable (into a plain logical scan) so that Calcite never plans an Enumerable
 * scan over it.
 */
public final class StarlingTable extends AbstractTable implements TranslatableTable {
    private final Table table;
    private final List<String> qualifiedName;
    private final CatalogSchema schema;

    StarlingTable(Table table, List<String> qualifiedName, CatalogSchema schema) {
        this.table = table;
        this.qualifiedName = List.copyOf(qualifiedName);
        this.schema = schema;
    }

    /** The storage table version this plan reads. */
    public Table table() {
        return table;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder b = factory.builder();
        for (ColumnSchema c : table.schema().columns()) {
            b.add(c.name(), TypeMapping.toCalcite(factory, c.type(), c.nullable()));
        }
        return b.build();
    }

    @Override
    public Statistic getStatistic() {
        TableSchema s = table.schema();
        List<ImmutableBitSet> keys = new ArrayList<>();
        if (!s.primaryKey().isEmpty()) {
            keys.add(ImmutableBitSet.of(s.primaryKey().stream().mapToInt(s::indexOf).toArray()));
        }
        List<RelReferentialConstraint> references = new ArrayList<>();
        for (ForeignKey fk : s.foreignKeys()) {
            StarlingTable target = schema.starlingTable(fk.referencedTable());
            if (target == null) {
                continue; // the referenced table was dropped; the constraint no longer constrains anything
            }
            TableSchema ts = target.table.schema();
            List<IntPair> pairs = new ArrayList<>();
            for (int i = 0; i < fk.columns().size(); i++) {
                pairs.add(IntPair.of(s.indexOf(fk.columns().get(i)), ts.indexOf(fk.referencedColumns().get(i))));
            }
            references.add(RelReferentialConstraintImpl.of(qualifiedName, target.qualifiedName, pairs));
        }
        return Statistics.of((double) table.rowCount(), keys, references, List.of());
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        return LogicalTableScan.create(context.getCluster(), relOptTable, context.getTableHints());
    }
}

package dev.starling.planner.rel;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.planner.schema.StarlingTable;
import dev.starling.planner.stats.ProjectedScan;
import dev.starling.planner.stats.ScanColumns;
import dev.starling.planner.translate.PlanTranslator;
import dev.starling.planner.translate.Translated;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Reads some columns of a table, optionally filtered; both pushed down from the operators above. */
public final class StarlingTableScan extends TableScan implements StarlingRel, ProjectedScan {
    private static final double COST_PER_COLUMN = 0.01;

    private final ImmutableIntList projects;
    private final @Nullable RexNode filter;

    /**
     * @param projects the table column of each output field
     * @param filter   a condition over the output fields, or null
     */
    public StarlingTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table,
                             ImmutableIntList projects, @Nullable RexNode filter) {
        super(cluster, traits, List.of(), table);
        this.projects = projects;
        this.filter = filter;
    }

    public static StarlingTableScan of(RelOptCluster cluster, RelOptTable table) {
        return new StarlingTableScan(cluster, cluster.traitSetOf(CONVENTION), table,
                ImmutableIntList.identity(table.getRowType().getFieldCount()), null);
    }

    @Override
    public ImmutableIntList projects() {
        return projects;
    }

    @Override
    public @Nullable RexNode filter() {
        return filter;
    }

    /** The storage table version this scan reads. */
    public Table storageTable() {
        return getTable().unwrapOrThrow(StarlingTable.class).table();
    }

    public StarlingTableScan withProjects(ImmutableIntList newProjects, @Nullable RexNode newFilter) {
        return new StarlingTableScan(getCluster(), getTraitSet(), getTable(), newProjects, newFilter);
    }

    public StarlingTableScan withFilter(RexNode newFilter) {
        return new StarlingTableScan(getCluster(), getTraitSet(), getTable(), projects, newFilter);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new StarlingTableScan(getCluster(), traitSet, getTable(), projects, filter);
    }

    /** The scan with {@code shuttle} applied to its filter (a bound parameter's value put in, say). */
    @Override
    public RelNode accept(org.apache.calcite.rex.RexShuttle shuttle) {
        RexNode changed = filter == null ? null : shuttle.apply(filter);
        return changed == filter ? this : withFilter(changed);
    }

    @Override
    public RelDataType deriveRowType() {
        List<RelDataTypeField> fields = getTable().getRowType().getFieldList();
        var builder = getCluster().getTypeFactory().builder();
        for (int p : projects) {
            builder.add(fields.get(p));
        }
        return builder.build();
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw)
                .item("projects", projects)
                .itemIf("filter", filter, filter != null);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return ScanColumns.of(this).map(ScanColumns::rowCount).orElseGet(() -> getTable().getRowCount());
    }

    /**
     * A scan costs the rows it reads, whatever it keeps, so absorbing a filter or a projection
     * always pays, plus a little per column, so reading fewer columns pays too. (Volcano compares
     * costs by their row count alone.)
     */
    @Override
    public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = getTable().getRowCount();
        return planner.getCostFactory().makeCost(rows * (1 + COST_PER_COLUMN * projects.size()), rows * projects.size(), 0);
    }

    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes) {
        return translate(translator, codes, ImmutableBitSet.of());
    }

    /** Leaves out the value of a code-only dense foreign key, unless the scan's own filter reads it. */
    @Override
    public Translated translate(PlanTranslator translator, ImmutableBitSet codes, ImmutableBitSet codeOnly) {
        Table table = storageTable();
        ImmutableBitSet filtered = filter == null ? ImmutableBitSet.of() : RelOptUtil.InputFinder.bits(filter);
        List<ScanColumn> columns = new ArrayList<>();
        int[] values = new int[projects.size()];
        for (int i = 0; i < projects.size(); i++) {
            boolean codeSuffices = codeOnly.get(i) && !filtered.get(i) && table.column(projects.get(i)).isDenseCoded();
            values[i] = codeSuffices ? -1 : columns.size();
            if (!codeSuffices) {
                columns.add(ScanColumn.value(projects.get(i)));
            }
        }
        int[] codeColumns = new int[projects.size()];
        Arrays.fill(codeColumns, -1);
        for (int field : codes) {
            ScanColumn code = codeColumn(table, projects.get(field));
            if (code != null) {
                codeColumns[field] = columns.size();
                columns.add(code);
            }
        }
        List<dev.starling.exec.plan.Field> outputs = new ScanNode(table, columns, null).output();
        Expr condition = filter == null ? null : translator.expr(filter, values, outputs);
        return new Translated(new ScanNode(table, columns, condition), values, codeColumns);
    }

    /** The dense code of a column: a dense foreign key's code, or the row id for a single-column primary key. */
    private static @Nullable ScanColumn codeColumn(Table table, int column) {
        Column c = table.column(column);
        if (c.isDenseCoded()) {
            return new ScanColumn(column, ScanColumn.Mode.CODE);
        }
        if (table.schema().primaryKey().equals(List.of(c.name()))) {
            return new ScanColumn(-1, ScanColumn.Mode.ROW_ID);
        }
        return null;
    }
}

package dev.starling.exec.plan;

import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.util.List;

/**
 * Reads columns of one table version, chunk by chunk. {@code filter} (may be null) is over the
 * scan's own output columns; the scan applies it and uses it to skip chunks whose zone maps
 * exclude it.
 */
public record ScanNode(Table table, List<ScanColumn> columns, Expr filter) implements PlanNode {

    /**
     * A column to read. For a dense-coded foreign key, {@code CODE} yields the referenced row
     * index instead of the key value; {@code ROW_ID} (with {@code column == -1}) yields each row's
     * index in the table, the build key of a dense join.
     */
    public record ScanColumn(int column, Mode mode) {
        public enum Mode { VALUE, CODE, ROW_ID }

        public static ScanColumn value(int column) {
            return new ScanColumn(column, Mode.VALUE);
        }
    }

    public ScanNode {
        columns = List.copyOf(columns);
    }

    @Override
    public List<Field> output() {
        return columns.stream().map(this::field).toList();
    }

    private Field field(ScanColumn c) {
        if (c.mode() == ScanColumn.Mode.ROW_ID) {
            return new Field(table.name() + "$rowid", DataType.INTEGER, false);
        }
        ColumnSchema cs = table.schema().column(c.column());
        return c.mode() == ScanColumn.Mode.CODE
                ? new Field(cs.name() + "$code", DataType.INTEGER, cs.nullable())
                : new Field(cs.name(), cs.type(), cs.nullable());
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public String describe() {
        List<String> labels = Field.labels(output());
        return "Scan " + table.name() + " " + labels + (filter == null ? "" : " filter: " + ExprText.of(filter, labels));
    }
}

package dev.starling.engine.data;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.cuda.BankGeometry;
import dev.starling.gpu.clone.CloneLayout;
import dev.starling.gpu.clone.CloneLayoutOptimizer;
import dev.starling.gpu.clone.ColumnCodes;
import dev.starling.gpu.clone.ConflictStatistics;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers {@code ANALYZE CONFLICTS}: the bank-conflict statistics of a column's codes as stored,
 * and, given a budget, of the clone layout the optimizer makes for them, with its size and time.
 */
public final class ConflictAnalysis {
    public static final List<Field> FIELDS = List.of(
            new Field("layout", DataType.VARCHAR, false),
            new Field("chunks", DataType.BIGINT, false),
            new Field("distinct_banks", DataType.DOUBLE, false),
            new Field("write_rounds", DataType.DOUBLE, false),
            new Field("read_rounds", DataType.DOUBLE, false),
            new Field("window_conflicts", DataType.DOUBLE, false),
            new Field("copies_per_value", DataType.DOUBLE, false),
            new Field("optimize_ms", DataType.DOUBLE, true));

    private ConflictAnalysis() { }

    public static List<List<Object>> rows(Catalog catalog, DataStatement.AnalyzeConflicts a, BankGeometry geometry) {
        Table table = DataStatementRunner.existing(catalog, a.table());
        int c = table.schema().indexOf(a.column());
        if (c < 0) {
            throw new StarlingSqlException("table " + table.name() + " has no column " + a.column());
        }
        Column column = table.column(c);
        ColumnCodes codes;
        try {
            long referenced = column.isDenseCoded() ? catalog.require(column.denseReference().table()).rowCount() : 0;
            codes = ColumnCodes.of(column, referenced);
        } catch (IllegalArgumentException e) {
            throw new StarlingSqlException(e.getMessage());
        }
        List<List<Object>> rows = new ArrayList<>();
        rows.add(row("as stored", ConflictStatistics.of(codes.codes(), geometry, a.window()), 1.0, null));
        if (a.budget() > 0) {
            CloneLayout layout = new CloneLayoutOptimizer(geometry, a.mode(), a.budget(), a.window())
                    .optimize(codes.codes(), codes.cardinality());
            rows.add(row(String.format("clones for %s, budget %s", a.mode().name().toLowerCase(), a.budget()),
                    ConflictStatistics.of(layout.slots(), geometry, a.window()), layout.copiesPerValue(),
                    layout.optimizeNanos() / 1e6));
        }
        return rows;
    }

    private static List<Object> row(String layout, ConflictStatistics s, double copies, Double millis) {
        List<Object> row = new ArrayList<>();
        row.add(layout);
        row.add(s.chunks());
        row.add(s.distinctBanks());
        row.add(s.writeRounds());
        row.add(s.readRounds());
        row.add(s.windowConflicts());
        row.add(copies);
        row.add(millis);
        return row;
    }
}

package dev.starling.sqllogic;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.starling.difftest.EnginePair;
import dev.starling.difftest.ResultComparator;
import dev.starling.difftest.ResultRows;
import dev.starling.difftest.RowOrder;
import dev.starling.sqllogic.SqlLogicRecord.Line;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.TableSchema;
import dev.starling.storage.load.LoadException;
import dev.starling.storage.load.LoadFormat;
import dev.starling.storage.load.TableLoader;
import java.io.StringReader;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Runs the records of one {@code .slt} file, in order, against Starling and a DuckDB mirror of its tables. */
final class SqlLogicSession implements AutoCloseable {
    private final String file;
    private EnginePair engines;

    SqlLogicSession(String file) {
        this.file = file;
    }

    void run(SqlLogicRecord record) throws SQLException {
        if (engines == null) {
            engines = EnginePair.open();
        }
        switch (record) {
            case SqlLogicRecord.Table t -> createTable(t);
            case SqlLogicRecord.Query q -> checkQuery(q);
            case SqlLogicRecord.Error e -> checkError(e);
        }
    }

    /** Loads the rows through Starling's CSV loader, then copies the table into DuckDB. */
    private void createTable(SqlLogicRecord.Table t) throws SQLException {
        TableSchema schema;
        try {
            schema = TableDeclaration.parse(t.declaration());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where(t.line()) + ": " + e.getMessage(), e);
        }
        // Every record ends with a line break, so that a last row of one NULL (an empty line) is a row.
        StringBuilder csv = new StringBuilder(schema.columns().stream().map(ColumnSchema::name)
                .collect(Collectors.joining(","))).append('\n');
        for (Line row : t.rows()) {
            csv.append(LiteralRow.parse(row.text(), where(row.number())).toCsv()).append('\n');
        }
        try {
            new TableLoader(engines.starling().catalog()).create(schema, new StringReader(csv.toString()),
                    file, LoadFormat.CSV);
        } catch (LoadException e) {
            // CSV line 1 is the header this session wrote; line n is the row on t.rows().get(n - 2).
            int row = (int) e.line() - 2;
            int line = row >= 0 && row < t.rows().size() ? t.rows().get(row).number() : t.line();
            throw new AssertionError(where(line) + ": loading table " + schema.name() + " failed: " + e.getMessage(), e);
        }
        engines.mirror(schema.name());
    }

    private void checkQuery(SqlLogicRecord.Query q) throws SQLException {
        ResultRows actual = ResultRows.of(engines.starling().query(q.sql()));
        RowOrder order = RowOrder.of(q.sql(), actual.columns());
        ResultRows expected = expectedRows(q, actual.columns());
        String vsExpected = ResultComparator.difference("expected", expected, "Starling", actual, order);
        ResultRows duck = q.noDuckDbReason() == null ? ResultRows.query(engines.duckDb(), q.sql()) : null;
        String vsDuckDb = duck == null ? null : ResultComparator.difference("DuckDB", duck, "Starling", actual, order);
        if (vsExpected == null && vsDuckDb == null) {
            return;
        }
        StringBuilder message = new StringBuilder(where(q.line())).append(":\n").append(q.sql()).append('\n');
        if (vsExpected != null) {
            message.append("Starling differs from the expected rows: ").append(vsExpected);
        }
        if (vsDuckDb != null) {
            message.append("Starling differs from DuckDB: ").append(vsDuckDb);
        }
        if (vsExpected != null && duck != null) {
            String duckVsExpected = ResultComparator.difference("expected", expected, "DuckDB", duck, order);
            message.append(duckVsExpected == null ? "DuckDB gives the expected rows\n"
                    : "DuckDB differs from the expected rows too: " + duckVsExpected);
        }
        fail(message.toString());
    }

    private ResultRows expectedRows(SqlLogicRecord.Query q, List<String> columns) {
        List<List<Object>> rows = new ArrayList<>();
        for (Line line : q.expected()) {
            List<Object> row = LiteralRow.parse(line.text(), where(line.number())).toValues(where(line.number()));
            if (row.size() != columns.size()) {
                fail(where(line.number()) + ": the expected row has " + row.size() + " values, the result has "
                        + columns.size() + " columns " + columns);
            }
            rows.add(row);
        }
        return new ResultRows(columns, rows);
    }

    private void checkError(SqlLogicRecord.Error e) {
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> engines.starling().query(e.sql()),
                where(e.line()) + ": expected an error containing '" + e.messageFragment() + "'");
        String message = String.valueOf(thrown.getMessage());
        if (!message.contains(e.messageFragment())) {
            throw new AssertionError(where(e.line()) + ": expected an error containing '" + e.messageFragment()
                    + "', got " + thrown, thrown);
        }
    }

    private String where(int line) {
        return file + ":" + line;
    }

    @Override
    public void close() throws SQLException {
        if (engines != null) {
            engines.close();
        }
    }
}

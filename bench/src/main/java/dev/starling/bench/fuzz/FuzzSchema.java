package dev.starling.bench.fuzz;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The tables of a catalog as a query generator sees them: columns, keys, and for each column a
 * sample of its values read once through the CPU backend (its distinct values, evenly spaced in
 * their order, with the least and the greatest), so that the same data gives the same sample and
 * the same seed the same queries.
 */
public record FuzzSchema(List<FuzzTable> tables) {
    private static final int SAMPLES = 24;

    public FuzzSchema {
        tables = List.copyOf(tables);
    }

    public static FuzzSchema of(Starling db) {
        BackendMode before = db.settings().backend();
        db.setBackendMode(BackendMode.CPU);
        try {
            List<FuzzTable> tables = new ArrayList<>();
            db.catalog().tables().stream().sorted(Comparator.comparing(Table::name)).forEach(t -> tables.add(table(db, t)));
            return new FuzzSchema(tables);
        } finally {
            db.setBackendMode(before);
        }
    }

    public Optional<FuzzTable> table(String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    private static FuzzTable table(Starling db, Table table) {
        List<FuzzColumn> columns = new ArrayList<>();
        for (ColumnSchema c : table.schema().columns()) {
            List<Object> values = new ArrayList<>();
            for (List<Object> row : db.query("SELECT DISTINCT " + c.name() + " FROM " + table.name()
                    + " WHERE " + c.name() + " IS NOT NULL ORDER BY 1").rows()) {
                values.add(row.get(0));
            }
            List<String> samples = new ArrayList<>();
            for (int i = 0; i < Math.min(SAMPLES, values.size()); i++) {
                samples.add(literal(c.type(), values.get(values.size() == 1 ? 0 : (int) ((long) i * (values.size() - 1) / (SAMPLES - 1)))));
            }
            columns.add(new FuzzColumn(c.name(), c.type(), c.nullable(), samples.stream().distinct().toList()));
        }
        return new FuzzTable(table.name(), columns, table.schema().foreignKeys(),
                table.rowCount());
    }

    /** {@code value}, as Starling returns a value of {@code type}, written as an SQL literal of that type. */
    static String literal(DataType type, Object value) {
        return switch (type.kind()) {
            case VARCHAR -> "'" + value.toString().replace("'", "''") + "'";
            case DATE -> "DATE '" + (value instanceof LocalDate d ? d : LocalDate.parse(value.toString())) + "'";
            case DECIMAL -> (value instanceof BigDecimal d ? d : new BigDecimal(value.toString())).toPlainString();
            case BOOLEAN -> ((Boolean) value) ? "TRUE" : "FALSE";
            case DOUBLE -> "CAST(" + value + " AS DOUBLE)";
            case INTEGER, BIGINT -> value.toString();
        };
    }
}

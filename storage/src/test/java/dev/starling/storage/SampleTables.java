package dev.starling.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A dimension and a fact table with a dense foreign key to it, covering every type, NULLs, text
 * with delimiters, quotes and newlines, an empty string beside NULL, and more than one chunk.
 */
final class SampleTables {
    static final TableSchema DIM = new TableSchema("ssb.dim", List.of(
            new ColumnSchema("d_key", DataType.INTEGER, false),
            new ColumnSchema("d_name", DataType.varchar(20), false)),
            List.of("d_key"), List.of());
    static final int DIM_ROWS = 50;

    static final TableSchema FACT = new TableSchema("ssb.fact", List.of(
            new ColumnSchema("f_id", DataType.BIGINT, false),
            new ColumnSchema("f_dim", DataType.INTEGER, false),
            new ColumnSchema("f_note", DataType.VARCHAR, true),
            new ColumnSchema("f_price", DataType.decimal(12, 2), true),
            new ColumnSchema("f_day", DataType.DATE, false),
            new ColumnSchema("f_flag", DataType.BOOLEAN, true),
            new ColumnSchema("f_ratio", DataType.DOUBLE, false),
            new ColumnSchema("f_late", DataType.INTEGER, true)),
            List.of("f_id"), List.of(ForeignKey.of("f_dim", "ssb.dim", "d_key")));
    /** A full chunk and a partial one. */
    static final int FACT_ROWS = Table.CHUNK_ROWS + 4_464;

    private SampleTables() { }

    static List<Object> dimRow(int i) {
        return List.of(10L * (i + 1), i % 2 == 0 ? "dim " + i : "Straße " + i);
    }

    static List<Object> factRow(int i) {
        String note = switch (i % 8) {
            case 0 -> "plain";
            case 1 -> "a|b|c";
            case 2 -> "say \"hi\", twice";
            case 3 -> "";
            case 4 -> null;
            case 5 -> "grüße ✓";
            case 6 -> "two\nlines";
            default -> "n" + i;
        };
        double ratio = switch (i) {
            case 5 -> Double.NaN;
            case 6 -> -0.0;
            case 7 -> Double.POSITIVE_INFINITY;
            default -> i / 7.0;
        };
        return Arrays.asList((long) i * 3 - 100_000, 10L * (i % DIM_ROWS + 1), note,
                i % 11 == 0 ? null : (long) (i * 137 % 100_000) - 5_000,
                8_000L + i % 3_000,
                i % 3 == 0 ? null : i % 2 == 0,
                ratio,
                i < Table.CHUNK_ROWS ? null : (long) i); // the first chunk of f_late is all NULL
    }

    static List<List<Object>> rows(int count, IntFunction<List<Object>> row) {
        return rows(0, count, row);
    }

    static List<List<Object>> rows(int from, int to, IntFunction<List<Object>> row) {
        List<List<Object>> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(row.apply(i));
        }
        return out;
    }

    /** Builds a table of the given rows, in the value forms of {@link TableRows}. */
    static Table build(TableSchema schema, Catalog catalog, List<List<Object>> rows) {
        return fill(new TableBuilder(schema, catalog), rows).build();
    }

    static TableBuilder fill(TableBuilder b, List<List<Object>> rows) {
        for (List<Object> row : rows) {
            for (int c = 0; c < row.size(); c++) {
                switch (row.get(c)) {
                    case null -> b.setNull(c);
                    case String s -> b.setString(c, s);
                    case Double d -> b.setDouble(c, d);
                    case Boolean z -> b.setBoolean(c, z);
                    case Long l -> b.setLong(c, l);
                    default -> throw new IllegalArgumentException("no column value: " + row.get(c));
                }
            }
            b.endRow();
        }
        return b;
    }
}

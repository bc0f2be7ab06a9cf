package dev.starling.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every type, NULLs, dense foreign keys, several chunks and schema-qualified names reach DuckDB exactly. */
class DuckDbMirrorTest {
    private static final int ROWS = Table.CHUNK_ROWS + 4464;
    private static final int DIM_ROWS = 10;

    private static Connection duck;

    @BeforeAll
    static void mirror() throws Exception {
        Catalog catalog = Catalog.inMemory();
        catalog.put(dimension(catalog));
        catalog.put(extension(catalog));
        catalog.put(fact(catalog));
        duck = DriverManager.getConnection("jdbc:duckdb:");
        DuckDbMirror.copy(catalog, duck);
    }

    @AfterAll
    static void close() throws Exception {
        duck.close();
    }

    /** Keys 100, 103, 106, ...: a dense code (row index) never equals its key. */
    private static long dimKey(int row) {
        return 100 + 3L * row;
    }

    private static Table dimension(Catalog catalog) {
        TableSchema schema = new TableSchema("ssb.dim", List.of(
                new ColumnSchema("k", DataType.INTEGER, false),
                new ColumnSchema("name", DataType.varchar(10), false)), List.of("k"), List.of());
        TableBuilder b = new TableBuilder(schema, catalog);
        for (int r = 0; r < DIM_ROWS; r++) {
            b.setLong(0, dimKey(r));
            b.setString(1, "d" + r);
            b.endRow();
        }
        return b.build();
    }

    /** A primary key that is also a dense-coded foreign key. */
    private static Table extension(Catalog catalog) {
        TableSchema schema = new TableSchema("ext", List.of(new ColumnSchema("ek", DataType.BIGINT, false)),
                List.of("ek"), List.of(ForeignKey.of("ek", "ssb.dim", "k")));
        TableBuilder b = new TableBuilder(schema, catalog);
        for (int r = DIM_ROWS - 1; r >= 0; r--) {
            b.setLong(0, dimKey(r));
            b.endRow();
        }
        return b.build();
    }

    private static final List<ColumnSchema> FACT_COLUMNS = List.of(
            new ColumnSchema("id", DataType.BIGINT, false),
            new ColumnSchema("dim_k", DataType.INTEGER, false),
            new ColumnSchema("i", DataType.INTEGER, true),
            new ColumnSchema("d", DataType.DOUBLE, true),
            new ColumnSchema("small", DataType.decimal(4, 1), true),
            new ColumnSchema("mid", DataType.decimal(9, 2), true),
            new ColumnSchema("big", DataType.decimal(18, 3), false),
            new ColumnSchema("day", DataType.DATE, true),
            new ColumnSchema("flag", DataType.BOOLEAN, true),
            new ColumnSchema("s", DataType.varchar(20), true));

    /** The fact row {@code r} as DuckDB should return it; a NULL every few rows, per column. */
    private static List<Object> factRow(int r) {
        return Arrays.asList(
                (long) r,
                (int) dimKey(r * 7 % DIM_ROWS),
                r % 5 == 0 ? null : r - 50_000,
                r % 6 == 0 ? null : r / 3.0,
                r % 7 == 0 ? null : BigDecimal.valueOf(r % 19_999 - 9_999, 1),
                r % 8 == 0 ? null : BigDecimal.valueOf(999_999_999L - 30_011L * (r % 66_000), 2),
                BigDecimal.valueOf(999_999_999_999_999_999L - 7_777_777_777L * r, 3),
                r % 9 == 0 ? null : LocalDate.ofEpochDay(r % 40_000 - 20_000),
                r % 10 == 0 ? null : r % 3 == 0,
                r % 11 == 0 ? null : r % 13 == 0 ? "" : "v|'," + (r % 100) + "\"é");
    }

    private static Table fact(Catalog catalog) {
        TableSchema schema = new TableSchema("ssb.fact", FACT_COLUMNS, List.of("id"),
                List.of(ForeignKey.of("dim_k", "ssb.dim", "k")));
        TableBuilder b = new TableBuilder(schema, catalog);
        for (int r = 0; r < ROWS; r++) {
            List<Object> row = factRow(r);
            for (int c = 0; c < row.size(); c++) {
                switch (row.get(c)) {
                    case null -> b.setNull(c);
                    case Double d -> b.setDouble(c, d);
                    case BigDecimal d -> b.setLong(c, d.unscaledValue().longValueExact());
                    case LocalDate d -> b.setLong(c, d.toEpochDay());
                    case Boolean f -> b.setBoolean(c, f);
                    case String s -> b.setString(c, s);
                    case Number n -> b.setLong(c, n.longValue());
                    default -> throw new AssertionError(row.get(c));
                }
            }
            b.endRow();
        }
        return b.build();
    }

    @Test
    void createsColumnsWithStarlingsTypesAndNullability() throws Exception {
        List<String> described = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
                        + "WHERE table_schema = 'ssb' AND table_name = 'fact' ORDER BY ordinal_position")) {
            while (rs.next()) {
                described.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
            }
        }
        assertEquals(List.of("id BIGINT NO", "dim_k INTEGER NO", "i INTEGER YES", "d DOUBLE YES",
                "small DECIMAL(4,1) YES", "mid DECIMAL(9,2) YES", "big DECIMAL(18,3) NO", "day DATE YES",
                "flag BOOLEAN YES", "s VARCHAR YES"), described);
    }

    @Test
    void copiesEveryValueExactlyWithForeignKeysAsKeyValues() throws Exception {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM ssb.fact ORDER BY id")) {
            int r = 0;
            while (rs.next()) {
                List<Object> expected = factRow(r);
                for (int c = 0; c < expected.size(); c++) {
                    Object got = expected.get(c) instanceof LocalDate ? rs.getObject(c + 1, LocalDate.class)
                            : rs.getObject(c + 1);
                    assertEquals(expected.get(c), got, "row " + r + " column " + FACT_COLUMNS.get(c).name());
                }
                r++;
            }
            assertEquals(ROWS, r);
        }
    }

    @Test
    void aPrimaryKeyThatIsADenseForeignKeyKeepsItsKeyValues() throws Exception {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT ek FROM main.ext")) {
            List<Long> keys = new ArrayList<>();
            while (rs.next()) {
                keys.add(rs.getLong(1));
            }
            assertEquals(List.of(127L, 124L, 121L, 118L, 115L, 112L, 109L, 106L, 103L, 100L), keys);
        }
    }
}

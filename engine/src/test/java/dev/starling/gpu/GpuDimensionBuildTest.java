package dev.starling.gpu;

import static dev.starling.gpu.NullableCells.nullOr;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: dimensions built on the GPU (their rows by index, no CPU build) give the CPU
 * backend's answers: columns of every width with NULLs read by the fact pipeline, a dimension-only
 * filter on a boolean and on a string's codes, groups keyed by a dimension's primary key whose
 * other keys (strings, NULLs) are read back from rows in several chunks, two such dimensions in one
 * group id, a foreign key's values inside the dimension, a filter no dimension row passes, and
 * groups keyed by values within ranges (a foreign key's, a date's year), whose digit the GPU computes.
 */
@Tag("gpu")
class GpuDimensionBuildTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        c.put(small(c));
        c.put(dimension(c, 150_000));
        c.put(fact(c, 400_000, 150_000));
    }

    private static Table small(Catalog c) {
        TableBuilder b = new TableBuilder(new TableSchema("ds", List.of(
                new ColumnSchema("sk", DataType.INTEGER, false),
                new ColumnSchema("sname", DataType.varchar(8), false)), List.of("sk"), List.of()), c);
        for (int k = 0; k < 10; k++) {
            b.setLong(0, 100 + k * 7);
            b.setString(1, "s" + k % 4);
            b.endRow();
        }
        return b.build();
    }

    /** {@code rows} rows (three chunks and a part) whose keys are not their codes, a NULL in most columns now and then. */
    private static Table dimension(Catalog c, int rows) {
        TableBuilder b = new TableBuilder(new TableSchema("dd", List.of(
                new ColumnSchema("dk", DataType.INTEGER, false),
                new ColumnSchema("flag", DataType.BOOLEAN, true),
                new ColumnSchema("dday", DataType.DATE, true),
                new ColumnSchema("qty", DataType.INTEGER, true),
                new ColumnSchema("big", DataType.BIGINT, false),
                new ColumnSchema("price", DataType.decimal(12, 2), true),
                new ColumnSchema("ratio", DataType.DOUBLE, true),
                new ColumnSchema("name", DataType.varchar(12), true),
                new ColumnSchema("dsk", DataType.INTEGER, false),
                new ColumnSchema("dship", DataType.DATE, false),
                new ColumnSchema("grade", DataType.varchar(4), false)), List.of("dk"),
                List.of(ForeignKey.of("dsk", "ds", "sk"))), c);
        Random random = new Random(7);
        for (int r = 0; r < rows; r++) {
            b.setLong(0, r * 3L + 1);
            nullOr(b, 1, r % 17 == 0, () -> b.setBoolean(1, random.nextInt(3) > 0));
            nullOr(b, 2, r % 19 == 0, () -> b.setLong(2, 9000 + random.nextInt(3000)));
            nullOr(b, 3, r % 23 == 0, () -> b.setLong(3, random.nextInt(100)));
            b.setLong(4, random.nextLong() >> 20);
            nullOr(b, 5, r % 29 == 0, () -> b.setLong(5, random.nextInt(1_000_000) + 1));
            nullOr(b, 6, r % 31 == 0, () -> b.setDouble(6, random.nextDouble()));
            nullOr(b, 7, r % 37 == 0, () -> b.setString(7, "n" + random.nextInt(5000)));
            b.setLong(8, 100 + random.nextInt(10) * 7);
            b.setLong(9, 9000 + random.nextInt(3000));
            b.setString(10, "g" + (r * 7 % 40));
            b.endRow();
        }
        return b.build();
    }

    private static Table fact(Catalog c, int rows, int dimensionRows) {
        TableBuilder b = new TableBuilder(new TableSchema("ff", List.of(
                new ColumnSchema("fid", DataType.BIGINT, false),
                new ColumnSchema("fk", DataType.INTEGER, false),
                new ColumnSchema("fs", DataType.INTEGER, false),
                new ColumnSchema("m", DataType.decimal(12, 2), true),
                new ColumnSchema("x", DataType.DOUBLE, false)), List.of("fid"),
                List.of(ForeignKey.of("fk", "dd", "dk"), ForeignKey.of("fs", "ds", "sk"))), c);
        Random random = new Random(11);
        for (int r = 0; r < rows; r++) {
            b.setLong(0, r);
            // a third of the dimension's rows have no fact row
            b.setLong(1, random.nextInt(dimensionRows / 3 * 2) * 3L + 1);
            b.setLong(2, 100 + random.nextInt(10) * 7);
            nullOr(b, 3, r % 13 == 0, () -> b.setLong(3, random.nextInt(100_000) - 20_000));
            b.setDouble(4, random.nextGaussian());
            b.endRow();
        }
        return b.build();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // columns of every width, with NULLs, read by the fact pipeline; a boolean dimension-only filter
        "SELECT COUNT(*), SUM(m * price), SUM(x * ratio), MIN(dday), MAX(qty), SUM(big), COUNT(price) "
                + "FROM ff JOIN dd ON fk = dk WHERE flag",
        "SELECT COUNT(*), SUM(m) FILTER (WHERE flag IS NULL), MAX(CASE WHEN qty > 50 THEN dday END) "
                + "FROM ff JOIN dd ON fk = dk WHERE name <> 'n7' AND dday < DATE '1999-01-01'",
        // grouped by the primary key: the other keys read back from the table's rows
        "SELECT dk, name, dday, flag, SUM(m), COUNT(*) FROM ff JOIN dd ON fk = dk WHERE qty > 50 GROUP BY dk, name, dday, flag",
        // two dimensions built on the GPU in one group id, the second digit above the first
        "SELECT dk, sk, sname, COUNT(*), SUM(x) FROM ff JOIN dd ON fk = dk JOIN ds ON fs = sk WHERE price > 900000 "
                + "GROUP BY dk, sk, sname",
        // a foreign key's values inside the dimension, filtered on and grouped by
        "SELECT dk, dsk, COUNT(*) FROM ff JOIN dd ON fk = dk WHERE dsk + qty > 150 GROUP BY dk, dsk",
        // no dimension row passes
        "SELECT COUNT(*), SUM(m) FROM ff JOIN dd ON fk = dk WHERE price < 0",
        "SELECT dk, COUNT(*) FROM ff JOIN dd ON fk = dk WHERE price < 0 GROUP BY dk",
        // grouped by keys that are not the primary key but lie in ranges: a digit computed from their values
        "SELECT dsk, COUNT(*), SUM(m) FROM ff JOIN dd ON fk = dk GROUP BY dsk",
        "SELECT EXTRACT(YEAR FROM dship), dsk, COUNT(*) FROM ff JOIN dd ON fk = dk WHERE qty > 20 "
                + "GROUP BY EXTRACT(YEAR FROM dship), dsk",
        "SELECT EXTRACT(YEAR FROM dship), sname, SUM(x) FROM ff JOIN dd ON fk = dk JOIN ds ON fs = sk "
                + "GROUP BY EXTRACT(YEAR FROM dship), sname",
        // a string key's digit counts its codes (TPC-H Q16's brand and type)
        "SELECT grade, dsk, COUNT(*), SUM(m), COUNT(DISTINCT fs) FROM ff JOIN dd ON fk = dk WHERE qty > 10 "
                + "GROUP BY grade, dsk"
    })
    void agreesWithTheCpu(String sql) {
        String explained = GpuResults.explainedOnGpu(ENGINE.db(), sql);
        assertTrue(explained.matches("(?s).*dimensions built on the GPU: [a-z, ]*\\bdd\\b.*"), explained);
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + explained);
    }
}

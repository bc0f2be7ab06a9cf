package dev.starling.gpu;

import static dev.starling.gpu.NullableCells.nullOr;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.BackendMode;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: hash joins whose build side is one table, filtered and projected, built on the
 * GPU (its rows written at their indexes, its hash table over the keys its build wrote) give the
 * CPU backend's answers: one key of either width, a key with NULLs, two keys packed into one, a
 * filter on the build side that a third of its rows fail, columns with NULLs read by the fact
 * pipeline, groups keyed by the build's primary key (read back from rows in several chunks) or by
 * a value within a range, SEMI and ANTI joins, and a fact key no build row has. An INNER join whose
 * probe side is an aggregation's groups runs with its sides' work swapped, and a join on two keys
 * of which one is unique over its build side on that key alone. A build side whose keys repeat
 * gives the pipeline back to the CPU, which answers.
 */
@Tag("gpu")
class GpuHashedBuildTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    private static final int BUILD_ROWS = 150_000;

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        c.put(build(c));
        c.put(probe(c, 400_000));
    }

    /** Keys that are not the rows' indexes (nor dense), so every join to them hashes. */
    private static Table build(Catalog c) {
        TableBuilder b = new TableBuilder(new TableSchema("hb", List.of(
                new ColumnSchema("hk", DataType.BIGINT, false),
                new ColumnSchema("ha", DataType.INTEGER, false),
                new ColumnSchema("hc", DataType.INTEGER, false),
                new ColumnSchema("hn", DataType.INTEGER, true),
                new ColumnSchema("hdup", DataType.INTEGER, false),
                new ColumnSchema("flag", DataType.BOOLEAN, false),
                new ColumnSchema("price", DataType.decimal(12, 2), true),
                new ColumnSchema("hday", DataType.DATE, false),
                new ColumnSchema("name", DataType.varchar(12), true)), List.of("hk"), List.of()), c);
        Random random = new Random(3);
        for (int row = 0; row < BUILD_ROWS; row++) {
            int r = row;
            b.setLong(0, key(r));
            b.setLong(1, r % 1000);
            b.setLong(2, r / 1000);
            nullOr(b, 3, r % 11 == 0, () -> b.setLong(3, -r));
            b.setLong(4, r % 5000);
            b.setBoolean(5, r % 3 != 0);
            nullOr(b, 6, r % 13 == 0, () -> b.setLong(6, random.nextInt(1_000_000)));
            b.setLong(7, 9000 + random.nextInt(3000));
            nullOr(b, 8, r % 17 == 0, () -> b.setString(8, "n" + random.nextInt(700)));
            b.endRow();
        }
        return b.build();
    }

    /** Build row {@code r}'s key: spread out and negative for some, unique. */
    private static long key(int r) {
        return (r * 2_654_435_761L) % 10_000_000_019L - 3_000_000_000L;
    }

    private static Table probe(Catalog c, int rows) {
        TableBuilder b = new TableBuilder(new TableSchema("hp", List.of(
                new ColumnSchema("pk", DataType.BIGINT, false),
                new ColumnSchema("pa", DataType.INTEGER, false),
                new ColumnSchema("pc", DataType.INTEGER, true),
                new ColumnSchema("pn", DataType.INTEGER, true),
                new ColumnSchema("pdup", DataType.INTEGER, false),
                new ColumnSchema("m", DataType.decimal(12, 2), true),
                new ColumnSchema("x", DataType.DOUBLE, false)), List.of(), List.of()), c);
        Random random = new Random(5);
        for (int r = 0; r < rows; r++) {
            int row = random.nextInt(BUILD_ROWS);
            // one probe row in ten has a key no build row has
            b.setLong(0, r % 10 == 0 ? key(row) + 1 : key(row));
            b.setLong(1, row % 1000);
            nullOr(b, 2, r % 19 == 0, () -> b.setLong(2, row / 1000));
            nullOr(b, 3, r % 7 == 0, () -> b.setLong(3, -random.nextInt(BUILD_ROWS)));
            b.setLong(4, random.nextInt(5000));
            nullOr(b, 5, r % 23 == 0, () -> b.setLong(5, random.nextInt(100_000) - 20_000));
            b.setDouble(6, random.nextGaussian());
            b.endRow();
        }
        return b.build();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // one 64-bit key; a build-side filter; a build column with NULLs read by the fact pipeline
        "SELECT COUNT(*), SUM(m * price), SUM(x), COUNT(price), MIN(hday) FROM hp JOIN hb ON pk = hk WHERE flag",
        // a 32-bit key with NULLs on both sides (the build's NULL keys are left out of the table)
        "SELECT COUNT(*), SUM(m), MAX(hday) FROM hp JOIN hb ON pn = hn",
        // two keys packed into one
        "SELECT COUNT(*), SUM(m), SUM(x * hc) FROM hp JOIN hb ON pa = ha AND pc = hc WHERE price > 300000",
        // grouped by the build's primary key, the other keys read back from its rows
        "SELECT hk, name, hday, COUNT(*), SUM(m) FROM hp JOIN hb ON pk = hk WHERE price > 900000 GROUP BY hk, name, hday",
        // grouped by a value within a range, its digit computed on the GPU
        "SELECT EXTRACT(YEAR FROM hday), COUNT(*), SUM(x) FROM hp JOIN hb ON pa = ha AND pc = hc "
                + "GROUP BY EXTRACT(YEAR FROM hday)",
        // SEMI and ANTI joins by a hashed key
        "SELECT COUNT(*), SUM(m) FROM hp WHERE pk IN (SELECT hk FROM hb WHERE flag AND price < 500000)",
        "SELECT COUNT(*), SUM(x) FROM hp WHERE NOT EXISTS (SELECT 1 FROM hb WHERE hk = pk AND flag)",
        // no build row passes
        "SELECT COUNT(*), SUM(m) FROM hp JOIN hb ON pk = hk WHERE price < 0"
    })
    void agreesWithTheCpu(String sql) {
        ENGINE.db().setBackendMode(BackendMode.GPU);
        String explained = ENGINE.db().explain(sql);
        ENGINE.db().setBackendMode(BackendMode.AUTO);
        assertTrue(explained.contains("dimensions built on the GPU: hb"), explained);
        assertTrue(explained.contains("found through a hash table built there"), explained);
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + explained);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // the aggregation is the probe side: the pipeline streams the build side's table and probes the groups
        "SELECT COUNT(*), SUM(g.ax), SUM(price) FROM (SELECT pk, AVG(x) AS ax FROM hp GROUP BY pk) g "
                + "JOIN hb ON g.pk = hb.hk WHERE hb.price < 100000 AND g.ax < hb.ha / 500.0",
        // two keys, one an aggregation's only group key: joined on it, the other compared after
        "SELECT COUNT(*), SUM(x) FROM hp JOIN (SELECT pa, MIN(m) AS mm FROM hp GROUP BY pa) g ON hp.pa = g.pa AND hp.m = g.mm",
        // two keys, one the build table's primary key
        "SELECT COUNT(*), SUM(m), SUM(price) FROM hp JOIN hb ON pk = hk AND pa = ha"
    })
    void swappedSidesAndOneUniqueKeyAgreeWithTheCpu(String sql) {
        ENGINE.db().setBackendMode(BackendMode.GPU);
        String explained = ENGINE.db().explain(sql);
        ENGINE.db().setBackendMode(BackendMode.AUTO);
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + explained);
    }

    @Test
    void repeatedBuildKeysGoToTheCpu() {
        String sql = "SELECT COUNT(*), SUM(m) FROM hp JOIN (SELECT hdup, price FROM hb WHERE hk > 0) b ON pdup = hdup";
        ENGINE.db().setBackendMode(BackendMode.GPU);
        String explained = ENGINE.db().explain(sql);
        ENGINE.db().setBackendMode(BackendMode.AUTO);
        assertTrue(explained.contains("dimensions built on the GPU: hb"), explained);
        assertFalse(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "ran on the GPU: " + explained);
    }
}

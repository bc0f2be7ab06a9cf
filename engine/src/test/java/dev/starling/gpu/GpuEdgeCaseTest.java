package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.PreparedQuery;
import dev.starling.exec.BackendMode;
import dev.starling.exec.QueryContext;
import dev.starling.exec.Settings;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
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
 * On the GPU host: NULLs in measures, group keys and dimension attributes, empty results, scalar
 * aggregates over no rows, a heavily skewed foreign key, a foreign key's values read and grouped
 * by, a group key computed from a fact column (a date's year), and hash joins on values (no foreign key, on one column or on two packed into one key; tables
 * built on the GPU, or on the host for a key the GPU's table cannot hold) give the CPU backend's
 * answers; a hash join whose build keys repeat stays on the CPU.
 */
@Tag("gpu")
class GpuEdgeCaseTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableSchema dim = new TableSchema("d", List.of(
                new ColumnSchema("d_key", DataType.INTEGER, false),
                new ColumnSchema("d_grp", DataType.varchar(10), true),
                new ColumnSchema("d_val", DataType.decimal(10, 2), true)), List.of("d_key"), List.of());
        TableBuilder d = new TableBuilder(dim, c);
        for (int r = 0; r < 50; r++) {
            // Keys that are not their rows' codes, so reading a foreign key's values means a lookup.
            d.setLong(0, r * 10L + 3);
            if (r % 9 == 0) {
                d.setNull(1);
            } else {
                d.setString(1, "g" + r % 4);
            }
            if (r % 5 == 0) {
                d.setNull(2);
            } else {
                d.setLong(2, r * 25L);
            }
            d.endRow();
        }
        c.put(d.build());
        TableSchema fact = new TableSchema("f", List.of(
                new ColumnSchema("f_id", DataType.BIGINT, false),
                new ColumnSchema("f_key", DataType.INTEGER, false),
                new ColumnSchema("f_cat", DataType.varchar(5), true),
                new ColumnSchema("f_amt", DataType.decimal(12, 2), true),
                new ColumnSchema("f_x", DataType.DOUBLE, true),
                new ColumnSchema("f_n", DataType.INTEGER, true),
                new ColumnSchema("f_day", DataType.DATE, false)), List.of("f_id"),
                List.of(ForeignKey.of("f_key", "d", "d_key")));
        TableBuilder f = new TableBuilder(fact, c);
        Random random = new Random(42);
        for (int r = 0; r < 300_000; r++) {
            f.setLong(0, r);
            // Skew: four rows in five share one key.
            f.setLong(1, (random.nextInt(5) < 4 ? 7 : random.nextInt(50)) * 10L + 3);
            if (r % 13 == 0) {
                f.setNull(2);
            } else {
                f.setString(2, "c" + random.nextInt(6));
            }
            if (r % 7 == 0) {
                f.setNull(3);
            } else {
                f.setLong(3, random.nextInt(2_000_000) - 500_000);
            }
            if (r % 11 == 0) {
                f.setNull(4);
            } else {
                f.setDouble(4, random.nextGaussian() * 100);
            }
            if (r % 3 == 0) {
                f.setNull(5);
            } else {
                f.setLong(5, random.nextInt(10));
            }
            f.setLong(6, 8000 + r % 3000);
            f.endRow();
        }
        c.put(f.build());
        // Joined on f_n by value, with no foreign key: a hashed dimension (codes 0..9 but 4; 7 twice in hd).
        c.put(lookup(c, "h", new int[] {0, 1, 2, 3, 5, 6, 7, 8, 9}));
        c.put(lookup(c, "hd", new int[] {0, 1, 2, 7, 7}));
        c.put(wideTags(c, "w1"));
        c.put(wideTags(c, "w2"));
        c.put(pairs(c, "pairs", false));
        c.put(pairs(c, "twice", true));
        TableSchema marked = new TableSchema("hmin", List.of(
                new ColumnSchema("code", DataType.BIGINT, false),
                new ColumnSchema("name", DataType.varchar(10), false)), List.of(), List.of());
        TableBuilder m = new TableBuilder(marked, c);
        for (long code : new long[] {Long.MIN_VALUE, 5, 17, 299_999}) {
            m.setLong(0, code);
            m.setString(1, "m" + (code & 3));
            m.endRow();
        }
        c.put(m.build());
    }

    /**
     * Rows keyed by (n, k) for a join on two columns with f's (f_n, f_key): every n from -1 to 11 (f
     * has 0 to 9 and NULL) with every fifth d_key and some keys d has not; {@code repeated}: one
     * pair twice, which would multiply rows.
     */
    private static dev.starling.storage.Table pairs(Catalog c, String name, boolean repeated) {
        TableSchema schema = new TableSchema(name, List.of(
                new ColumnSchema("n", DataType.INTEGER, true),
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("w", DataType.decimal(6, 2), false)), List.of(), List.of());
        TableBuilder b = new TableBuilder(schema, c);
        for (int n = -1; n <= 11; n++) {
            for (int r = n & 1; r < 60; r += 5) {
                b.setLong(0, n);
                b.setLong(1, r * 10L + 3);
                b.setLong(2, (n + 2) * 100L + r);
                b.endRow();
            }
        }
        b.setNull(0);
        b.setLong(1, 73);
        b.setLong(2, 1);
        b.endRow();
        if (repeated) {
            b.setLong(0, 7);
            b.setLong(1, 13);
            b.setLong(2, 2);
            b.endRow();
        }
        return b.build();
    }

    /**
     * 70,000 rows joined on f_id by value, each with a tag of its own: grouping by the tags of two
     * of them makes 4.9 billion dense ids, past 2^31, so the group contributions are 64-bit.
     */
    private static dev.starling.storage.Table wideTags(Catalog c, String name) {
        TableSchema schema = new TableSchema(name, List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("tag", DataType.varchar(12), false)), List.of(), List.of());
        TableBuilder b = new TableBuilder(schema, c);
        for (int k = 0; k < 70_000; k++) {
            b.setLong(0, k);
            b.setString(1, name + "-" + k);
            b.endRow();
        }
        return b.build();
    }

    private static dev.starling.storage.Table lookup(Catalog c, String name, int[] codes) {
        TableSchema schema = new TableSchema(name, List.of(
                new ColumnSchema("code", DataType.INTEGER, false),
                new ColumnSchema("name", DataType.varchar(10), false),
                new ColumnSchema("weight", DataType.decimal(5, 2), true)), List.of(), List.of());
        TableBuilder b = new TableBuilder(schema, c);
        for (int i = 0; i < codes.length; i++) {
            b.setLong(0, codes[i]);
            b.setString(1, "n" + codes[i] % 3);
            if (i == 2) {
                b.setNull(2);
            } else {
                b.setLong(2, 50L + i * 25);
            }
            b.endRow();
        }
        return b.build();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT d_grp, COUNT(*), COUNT(f_amt), SUM(f_amt), AVG(f_amt), MIN(f_x), MAX(f_n), MIN(f_amt) FROM f JOIN d ON f_key = d_key GROUP BY d_grp",
        "SELECT f_cat, SUM(f_amt * 2), SUM(f_x), AVG(f_x), COUNT(f_n) FROM f GROUP BY f_cat",
        "SELECT d_key, d_grp, SUM(f_amt), MAX(f_x) FROM f JOIN d ON f_key = d_key GROUP BY d_key, d_grp",
        "SELECT d_grp, COUNT(*) FROM f JOIN d ON f_key = d_key WHERE f_amt < -1000000 GROUP BY d_grp",
        "SELECT SUM(f_amt), COUNT(*), MIN(f_x), AVG(f_n) FROM f WHERE f_amt < -1000000",
        "SELECT SUM(d_val * f_amt), COUNT(d_val) FROM f JOIN d ON f_key = d_key WHERE d_grp = 'g1'",
        "SELECT SUM(CASE WHEN f_n > 5 THEN f_amt ELSE 0 END), COUNT(*) FILTER (WHERE f_n IS NULL) FROM f",
        "SELECT f_cat, d_grp, SUM(f_n) FROM f JOIN d ON f_key = d_key WHERE f_cat IN ('c1', 'c2') OR f_n IS NULL GROUP BY f_cat, d_grp",
        "SELECT COUNT(*) FROM f WHERE f_cat = 'nope'",
        "SELECT d_grp, SUM(f_amt) FROM f JOIN d ON f_key = d_key WHERE d_val > 500 AND f_x > 0 GROUP BY d_grp ORDER BY d_grp",
        "SELECT h.name, COUNT(*), SUM(f_amt) FROM f JOIN h ON f_n = h.code GROUP BY h.name",
        "SELECT d_grp, h.name, SUM(f_x) FROM f JOIN d ON f_key = d_key JOIN h ON f_n = h.code WHERE h.weight > 1 GROUP BY d_grp, h.name",
        "SELECT SUM(h.weight * f_amt), COUNT(h.weight) FROM f JOIN h ON f_n = h.code WHERE f_cat <> 'c3'",
        "SELECT f_key, COUNT(*), SUM(f_amt) FROM f GROUP BY f_key",
        "SELECT SUM(f_key), MAX(f_key + f_n), MIN(f_key) FROM f WHERE f_cat = 'c2'",
        "SELECT f_key, h.name, COUNT(*) FROM f JOIN h ON f_n = h.code WHERE f_key > 100 GROUP BY f_key, h.name",
        // 300,000 groups by dense id, compacted past the first room for them
        "SELECT f_id, COUNT(*), SUM(f_amt), MIN(f_x) FROM f GROUP BY f_id",
        // 6e11 dense ids: hashed, one group per row; and groups that come back empty of rows
        "SELECT f_id, f_amt, COUNT(*), MAX(f_n) FROM f GROUP BY f_id, f_amt",
        "SELECT f_id, f_amt, COUNT(*) FROM f WHERE f_cat = 'nope' GROUP BY f_id, f_amt",
        // hashed (51 codes times 2M amounts), few groups, four rows in five in one of them
        "SELECT f_key, f_amt, COUNT(*), SUM(f_x), MIN(f_n) FROM f WHERE f_amt IS NULL GROUP BY f_key, f_amt",
        // a hash join on two columns, packed into one key; probe keys outside the build's ranges and NULLs match nothing
        "SELECT pairs.w, COUNT(*), SUM(f_amt) FROM f JOIN pairs ON f_n = pairs.n AND f_key = pairs.k GROUP BY pairs.w",
        "SELECT d_grp, COUNT(*) FROM f JOIN d ON f_key = d_key JOIN pairs ON f_n = pairs.n AND d_key = pairs.k "
                + "WHERE pairs.w > 5 GROUP BY d_grp",
        // a key computed from a fact column, within the years its dates span
        "SELECT EXTRACT(YEAR FROM f_day), d_grp, COUNT(*), SUM(f_amt) FROM f JOIN d ON f_key = d_key "
                + "GROUP BY EXTRACT(YEAR FROM f_day), d_grp",
        // a build key equal to the GPU table's empty-slot marker: the table is built on the host
        "SELECT hmin.name, COUNT(*), SUM(f_amt) FROM f JOIN hmin ON f_id = hmin.code GROUP BY hmin.name",
        // two dimension digits of 70,000 tuples each: 64-bit contributions
        "SELECT w1.tag, w2.tag, COUNT(*), SUM(f_amt) FROM f JOIN w1 ON f_id = w1.k JOIN w2 ON f_id = w2.k "
                + "GROUP BY w1.tag, w2.tag",
        // few groups folded into clones, values past 32 bits of either sign: sums split into halves
        "SELECT f_cat, SUM(f_id * 200000000), SUM(f_amt * -7000000), MIN(f_id * -3000000000), MAX(f_amt * 1000000), "
                + "COUNT(*) FROM f GROUP BY f_cat"
    })
    void agreesWithTheCpu(String sql) {
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + ENGINE.db().explain(sql));
    }

    @Test
    void aSumOfFewGroupsPast64BitsFailsOnTheGpuAsOnTheCpu() {
        GpuResults.assertSumOverflowOnCpuAndGpu(ENGINE.db(), "SELECT f_cat, SUM(f_id * 1000000000000) FROM f GROUP BY f_cat");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT f_id, f_cat, d_grp, f_amt * 2, h.name, h.weight, f_key FROM f JOIN d ON f_key = d_key JOIN h ON f_n = h.code WHERE f_x > 150",
        "SELECT f_id, f_x, f_n IS NULL, d_val FROM f JOIN d ON f_key = d_key WHERE f_amt < -499000",
        "SELECT f_id FROM f WHERE f_cat = 'nope'"
    })
    void selectedRowsAgreeWithTheCpu(String sql) {
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + ENGINE.db().explain(sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT hd.name, COUNT(*), SUM(f_amt) FROM f JOIN hd ON f_n = hd.code GROUP BY hd.name",
        "SELECT twice.w, COUNT(*) FROM f JOIN twice ON f_n = twice.n AND f_key = twice.k GROUP BY twice.w"
    })
    void aHashJoinWithDuplicateBuildKeysRunsOnTheCpu(String sql) {
        GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql);
        // its build side's rows may come from the GPU; the join and the aggregation over it do not
        Settings gpu = Settings.DEFAULT.withBackend(BackendMode.GPU);
        PreparedQuery q = ENGINE.db().prepare(sql, gpu);
        QueryContext ctx = ENGINE.db().newContext(gpu);
        ENGINE.db().execute(q, ctx, batch -> { });
        PipelineGraph.Pipeline aggregation = q.graph().pipelines().stream()
                .filter(p -> p.role() == PipelineGraph.Role.AGGREGATE_INPUT).findFirst().orElseThrow();
        assertTrue(ctx.ranOn().get(aggregation.id()).startsWith("cpu"), "a join that multiplies rows ran on the GPU: "
                + ctx.ranOn());
    }
}

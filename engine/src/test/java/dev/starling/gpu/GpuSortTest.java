package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
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
 * On the GPU host: ORDER BY over a selection's rows sorted on the GPU (EXPLAIN says so, and the
 * pipeline the sort tops runs there), equal to the CPU backend row for row: several keys of every
 * kind (decimals, doubles with both zeros and NaN, dates, integers with many ties, strings by their
 * order not their codes', a computed key), either direction, NULLs first and last, an offset and a
 * limit (also past the rows), none or one row passing, a key every row shares, and rows past the
 * kernel's first room (4M) over many tiles of the sort, keys not selected. Groups, which reach their sort on the host,
 * are ordered on the GPU from their keys.
 */
@Tag("gpu")
class GpuSortTest {
    private static final String SORTED = "its rows sorted on the GPU";

    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableBuilder b = new TableBuilder(new TableSchema("r", List.of(
                new ColumnSchema("id", DataType.BIGINT, false),
                new ColumnSchema("amt", DataType.decimal(12, 2), false),
                new ColumnSchema("d", DataType.DOUBLE, false),
                new ColumnSchema("day", DataType.DATE, false),
                new ColumnSchema("v", DataType.INTEGER, false),
                new ColumnSchema("s", DataType.varchar(12), false),
                new ColumnSchema("nv", DataType.INTEGER, true),
                new ColumnSchema("ns", DataType.varchar(8), true),
                new ColumnSchema("one", DataType.INTEGER, false)), List.of(), List.of()), c);
        Random random = new Random(23);
        for (int r = 0; r < 200_000; r++) {
            b.setLong(0, r);
            b.setLong(1, random.nextInt(2_000_000) - 1_000_000);
            b.setDouble(2, r % 1000 == 0 ? (r % 3000 == 0 ? -0.0 : r % 2000 == 0 ? Double.NaN : 0.0)
                    : random.nextGaussian() * 1e6);
            b.setLong(3, 8000 + random.nextInt(4000));
            b.setLong(4, random.nextInt(40) - 20);
            // strings whose codes (first seen, first coded) do not follow their order
            b.setString(5, "s" + Integer.toString(random.nextInt(5000), 7));
            if (r % 7 == 0) {
                b.setNull(6);
            } else {
                b.setLong(6, random.nextInt(1000) - 500);
            }
            if (r % 5 == 0) {
                b.setNull(7);
            } else {
                b.setString(7, "n" + random.nextInt(30));
            }
            b.setLong(8, 1);
            b.endRow();
        }
        c.put(b.build());
        TableBuilder many = new TableBuilder(new TableSchema("many", List.of(
                new ColumnSchema("id", DataType.BIGINT, false),
                new ColumnSchema("amt", DataType.decimal(12, 2), false),
                new ColumnSchema("k", DataType.INTEGER, false)), List.of(), List.of()), c);
        for (int r = 0; r < 5_000_000; r++) {
            many.setLong(0, r);
            many.setLong(1, random.nextInt(20_000_000) - 10_000_000);
            many.setLong(2, random.nextInt(100));
            many.endRow();
        }
        c.put(many.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, amt FROM r ORDER BY amt DESC, id",
        "SELECT id, d FROM r ORDER BY d, id",
        "SELECT id, d FROM r WHERE v > 0 ORDER BY d DESC, id DESC",
        "SELECT day, v, id FROM r ORDER BY day DESC, v, id",
        "SELECT s, id FROM r ORDER BY s, id",
        "SELECT s, v, id FROM r ORDER BY s DESC, v DESC, id",
        "SELECT nv, id FROM r ORDER BY nv NULLS FIRST, id",
        "SELECT nv, id FROM r ORDER BY nv DESC NULLS LAST, id DESC",
        "SELECT ns, nv, id FROM r ORDER BY ns DESC NULLS FIRST, nv NULLS LAST, id",
        "SELECT id, amt * v AS x FROM r WHERE s <> 's3' ORDER BY x, id",
        "SELECT id, amt, day FROM r ORDER BY day, amt DESC, id LIMIT 100 OFFSET 50",
        "SELECT id, amt FROM r ORDER BY amt, id OFFSET 199990",
        "SELECT id, amt FROM r ORDER BY amt, id LIMIT 10 OFFSET 300000",
        "SELECT id, amt FROM r WHERE id < 0 ORDER BY amt, id",
        "SELECT id, amt FROM r WHERE id = 5 ORDER BY amt, id",
        "SELECT one, id FROM r ORDER BY one, id DESC",
        "SELECT id, amt, k FROM many ORDER BY k, amt DESC, id",
        // keys not selected: sorted on the device, not copied back
        "SELECT id FROM r ORDER BY s DESC, amt, id",
        "SELECT id, k FROM many ORDER BY amt DESC, id LIMIT 10",
        "SELECT id, amt FROM many WHERE k < 90 ORDER BY amt, id LIMIT 1000000"
    })
    void rowsSortedOnTheGpuAreTheCpusInOrder(String sql) {
        String explained = GpuResults.explainedOnGpu(ENGINE.db(), sql);
        assertTrue(explained.contains(SORTED) && explained.contains("sorted on the GPU by pipeline"), explained);
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + explained);
    }

    /**
     * Rows that reach a sort on the host (an aggregation's groups, computed on the GPU but for the
     * last query's 5M, grouped by a DOUBLE the GPU does not group by) are ordered on the GPU from
     * their keys: integers, decimals, doubles, strings by their order, NULLs either way, an offset
     * and a limit.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT v, COUNT(*) AS c, SUM(amt) AS t FROM r GROUP BY v ORDER BY t DESC, v",
        "SELECT s, COUNT(*) AS c FROM r GROUP BY s ORDER BY c DESC, s LIMIT 50 OFFSET 7",
        "SELECT ns, MIN(id) AS m FROM r GROUP BY ns ORDER BY ns NULLS FIRST",
        "SELECT nv, MAX(amt) AS m FROM r GROUP BY nv ORDER BY nv DESC NULLS LAST",
        "SELECT day, SUM(amt) AS t FROM r WHERE v > 15 GROUP BY day ORDER BY day DESC",
        "SELECT id / 10 AS g, SUM(amt) AS t FROM many GROUP BY id / 10 ORDER BY t DESC, g"
    })
    void groupsSortedOnTheGpuAreTheCpusInOrder(String sql) {
        String explained = GpuResults.explainedOnGpu(ENGINE.db(), sql);
        assertTrue(explained.contains("sorted on the GPU: the keys of the rows it reads copied there"), explained);
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + explained);
    }
}

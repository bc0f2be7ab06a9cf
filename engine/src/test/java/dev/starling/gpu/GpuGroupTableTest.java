package dev.starling.gpu;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: a group hash table is first sized for the groups the optimizer expects. Where
 * it expects far fewer than come (filters on expressions, whose selectivity it guesses: here all
 * rows pass), the groups outgrow that table and the run is redone with one for all there can be;
 * where it expects a few too few, they fill it past its intended load. Either way the answers are
 * the CPU backend's, a top-N cut and a HAVING among them, and device memory returns to its
 * baseline.
 */
@Tag("gpu")
class GpuGroupTableTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableBuilder t = new TableBuilder(new TableSchema("t", List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("v", DataType.INTEGER, false),
                new ColumnSchema("w", DataType.INTEGER, false)), List.of(), List.of()), c);
        for (int r = 0; r < 400_000; r++) {
            t.setLong(0, 7L * (r % 300_000));
            t.setLong(1, r % 1000);
            t.setLong(2, r % 777);
            t.endRow();
        }
        c.put(t.build());
    }

    private static final String ALL_PASS = "v + w >= 0 AND v * 2 + w > -1 AND w - v > -5000 AND k + v >= 0";

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT k, v, COUNT(*), SUM(w) FROM t WHERE " + ALL_PASS + " GROUP BY k, v",
        "SELECT k, v, SUM(w) AS s FROM t WHERE " + ALL_PASS + " GROUP BY k, v ORDER BY s DESC, k LIMIT 10",
        "SELECT k, v, MAX(w) FROM t WHERE " + ALL_PASS + " GROUP BY k, v HAVING COUNT(*) > 1",
        "SELECT k, v, COUNT(*) FROM t WHERE v + w >= 0 AND k + v >= 0 GROUP BY k, v"
    })
    void groupsPastTheExpectedAgreeWithTheCpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, "groups expected, ");
    }
}

package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;


import dev.starling.exec.BackendMode;
import dev.starling.exec.InvalidCastException;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
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
 * On the GPU host: a HAVING over an aggregation the GPU runs is applied to the groups on the device
 * (EXPLAIN says so) and the answers are the CPU backend's, for counts, sums, NULL extremes,
 * comparisons written either way round, conditions of which the GPU applies only a part, dense and
 * hashed groups, and none passing, and for groups compared with a scalar subquery's value; a sum
 * past 64 bits, or a value a comparison's CAST takes past them, is still reported, not filtered away.
 */
@Tag("gpu")
class GpuHavingTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableSchema schema = new TableSchema("g", List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("grp", DataType.INTEGER, false),
                new ColumnSchema("amt", DataType.decimal(12, 2), true),
                new ColumnSchema("n", DataType.INTEGER, true),
                new ColumnSchema("big", DataType.BIGINT, false)), List.of(), List.of());
        TableBuilder g = new TableBuilder(schema, c);
        Random random = new Random(7);
        for (int r = 0; r < 200_000; r++) {
            g.setLong(0, random.nextInt(100_000));
            g.setLong(1, r % 10);
            if (r % 7 == 0) {
                g.setNull(2);
            } else {
                g.setLong(2, random.nextInt(200_000) - 100_000);
            }
            if (r % 3 == 0) {
                g.setNull(3);
            } else {
                g.setLong(3, random.nextInt(10));
            }
            g.setLong(4, Long.MAX_VALUE / 4 + r);
            g.endRow();
        }
        c.put(g.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // 100,000 dense groups
        "SELECT k, SUM(amt) FROM g GROUP BY k HAVING SUM(amt) > 1500.50",
        "SELECT k, SUM(amt) FROM g GROUP BY k HAVING SUM(amt) >= 1500 AND SUM(amt) <= 2000",
        // ten groups, counted and their least amounts
        "SELECT grp, COUNT(*), MIN(amt) FROM g GROUP BY grp HAVING COUNT(*) >= 20000 AND MIN(amt) < -999.5",
        "SELECT grp, COUNT(n) FROM g GROUP BY grp HAVING 13300 < COUNT(n)",
        // MAX of a nullable column: groups whose values are all NULL fail; AVG stays with the CPU
        "SELECT k, grp, MAX(n), AVG(amt) FROM g GROUP BY k, grp HAVING MAX(n) = 3 AND AVG(amt) > 0",
        // hashed groups (k by amt passes 2^24 dense ids)
        "SELECT k, amt, COUNT(*) FROM g GROUP BY k, amt HAVING COUNT(*) >= 2",
        // no group passes; no group at all
        "SELECT k, COUNT(*) FROM g GROUP BY k HAVING COUNT(*) > 1000",
        "SELECT k, SUM(amt) FROM g WHERE grp = 99 GROUP BY k HAVING SUM(amt) > 0"
    })
    void havingOnTheGpuAgreesWithTheCpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, "applied to the groups on the GPU");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // TPC-H Q11's shape: the sums (scale 2) compared through a CAST with a scalar of scale 6
        "SELECT k, SUM(amt) AS s FROM g GROUP BY k HAVING SUM(amt) > (SELECT SUM(amt) * 0.00005 FROM g)",
        // Q15's: the groups equal to their own maximum
        "SELECT grp, SUM(amt) AS s FROM g GROUP BY grp HAVING SUM(amt) = "
            + "(SELECT MAX(s) FROM (SELECT grp, SUM(amt) AS s FROM g GROUP BY grp) x)",
        // counts compared either way round; a scalar that is NULL (no row passes its filter) keeps none
        "SELECT k, COUNT(*) FROM g GROUP BY k HAVING (SELECT MIN(n) + 3 FROM g) <= COUNT(*)",
        "SELECT k, SUM(amt) FROM g GROUP BY k HAVING SUM(amt) > (SELECT MAX(amt) FROM g WHERE grp = 99)"
    })
    void groupsComparedWithAScalarSubqueryAreFilteredOnTheGpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, "applied to the groups on the GPU");
    }

    @Test
    void aValueItsComparisonsCastTakesPast64BitsIsReportedNotFilteredAway() {
        // MAX(big) (about 2.3e18) is cast to scale 2 to meet MIN(amt): past DECIMAL(18,2)'s range on
        // the CPU, so the device must send the groups back for the host to fail as the CPU does
        String sql = "SELECT grp, MAX(big) FROM g GROUP BY grp HAVING MAX(big) < (SELECT MIN(amt) FROM g)";
        for (BackendMode mode : List.of(BackendMode.CPU, BackendMode.GPU)) {
            ENGINE.db().setBackendMode(mode);
            try {
                InvalidCastException e = assertThrows(InvalidCastException.class, () -> ENGINE.db().query(sql), mode.name());
                assertTrue(e.getMessage().contains("to DECIMAL(18,2): out of range"), e.getMessage());
            } finally {
                ENGINE.db().setBackendMode(BackendMode.AUTO);
            }
        }
    }

    @Test
    void aSumPast64BitsIsReportedNotFilteredAway() {
        String sql = "SELECT grp, SUM(big) FROM g GROUP BY grp HAVING SUM(big) < 0";
        GpuResults.assertSumOverflowOnCpuAndGpu(ENGINE.db(), sql);
    }
}

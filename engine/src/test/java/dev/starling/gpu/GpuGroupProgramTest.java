package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.BackendMode;
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
 * On the GPU host: the plan over an aggregation's groups that tops a pipeline (TPC-H Q8's, Q14's
 * and Q17's final arithmetic, a HAVING, Q11's comparison with a scalar subquery) is computed from
 * the groups on the GPU (EXPLAIN says so), and the answers are the CPU backend's: decimal and
 * double arithmetic, a CASE, NULL sums of empty inputs, counts that are never NULL, keys passed
 * through beside computed columns, groups past a compaction's first room, hashed groups, a
 * HAVING the GPU also applies while compacting and one it cannot, a scalar that is NULL, a top-N
 * over the groups; a division by zero, an overflow of the arithmetic and a SUM past 64 bits are
 * reported exactly as the CPU reports them. A condition or expression over a key, or an AVG,
 * stays on the CPU.
 */
@Tag("gpu")
class GpuGroupProgramTest {
    private static final String ON_GPU = "computed from the groups on the GPU";

    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableBuilder g = new TableBuilder(new TableSchema("t", List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("grp", DataType.INTEGER, false),
                new ColumnSchema("amt", DataType.decimal(12, 2), false),
                new ColumnSchema("v", DataType.INTEGER, true),
                new ColumnSchema("d", DataType.DOUBLE, false),
                new ColumnSchema("big", DataType.BIGINT, false)), List.of(), List.of()), c);
        Random random = new Random(29);
        for (int r = 0; r < 200_000; r++) {
            g.setLong(0, random.nextInt(100_000));
            g.setLong(1, r % 7);
            g.setLong(2, random.nextInt(200_000) - 100_000);
            if (r % 5 == 0) {
                g.setNull(3);
            } else {
                g.setLong(3, random.nextInt(40));
            }
            g.setDouble(4, random.nextDouble() * 100);
            g.setLong(5, Long.MAX_VALUE / 4 + r);
            g.endRow();
        }
        c.put(g.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // Q14's shape: a ratio of two sums of one group
        "SELECT 100.00 * SUM(CASE WHEN v > 20 THEN amt ELSE 0 END) / SUM(amt) FROM t WHERE amt > 0",
        // Q17's: a sum divided by a constant, as a double
        "SELECT CAST(SUM(amt) AS DOUBLE) / 7.0 FROM t",
        // no row reaches the one group: its sums are NULL, its count 0
        "SELECT SUM(amt) * 2, COUNT(*) + 1, MAX(v) - 1 FROM t WHERE k < 0",
        // Q8's: a key passed through beside a ratio per group
        "SELECT grp, CAST(SUM(CASE WHEN v < 10 THEN amt ELSE 0 END) AS DOUBLE) / CAST(SUM(amt) AS DOUBLE) FROM t GROUP BY grp",
        "SELECT SUM(d) / COUNT(*), grp, MAX(d) - MIN(d) FROM t GROUP BY grp",
        // a group whose every v is NULL has a NULL MAX; COUNT(v) is 0 there
        "SELECT k, MAX(v) + 1, COUNT(v) * 2 FROM t WHERE k < 300 GROUP BY k",
        // past the first room of compacted groups
        "SELECT k, SUM(amt) - MIN(amt), COUNT(*) FROM t GROUP BY k",
        // hashed groups (k by amt passes 2^24 dense ids)
        "SELECT k, amt, SUM(v) * 3 FROM t GROUP BY k, amt",
        // a HAVING the compaction applies too, and one only the program can
        "SELECT k, SUM(amt) / 100 FROM t GROUP BY k HAVING SUM(amt) > 150000",
        "SELECT k, SUM(amt) FROM t GROUP BY k HAVING SUM(amt) * 2 - MIN(amt) > 300000 AND COUNT(*) > 1",
        "SELECT grp, SUM(amt) / 100 AS x FROM t GROUP BY grp ORDER BY x",
        // Q11's shape: groups above a fraction of the total, a scalar subquery
        "SELECT k, SUM(amt) AS s FROM t GROUP BY k HAVING SUM(amt) > (SELECT SUM(amt) * 0.00003 FROM t)",
        "SELECT k, SUM(d) FROM t GROUP BY k HAVING SUM(d) > (SELECT AVG(d) * 4 FROM t)",
        // a NULL scalar: no group passes
        "SELECT k, SUM(amt) FROM t GROUP BY k HAVING SUM(amt) > (SELECT MAX(amt) FROM t WHERE k < 0)",
        // Q15's shape: the groups equal to the largest of them, which the GPU finds too
        "SELECT k, s FROM (SELECT k, SUM(amt) AS s FROM t GROUP BY k) "
                + "WHERE s = (SELECT MAX(s2) FROM (SELECT k, SUM(amt) AS s2 FROM t GROUP BY k))",
        // extremes of the groups: of a sum, of counts with many ties, with a projection above
        "SELECT MAX(s) FROM (SELECT k, SUM(amt) AS s FROM t GROUP BY k)",
        "SELECT MIN(c), MIN(c) FROM (SELECT k, COUNT(v) AS c FROM t GROUP BY k)",
        "SELECT MAX(s) * 2 FROM (SELECT k, SUM(amt) AS s FROM t GROUP BY k)",
        // no group at all: NULL
        "SELECT MAX(s) FROM (SELECT k, SUM(amt) AS s FROM t WHERE k < 0 GROUP BY k)"
    })
    void projectionsOverTheGroupsAgreeWithTheCpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, ON_GPU);
    }

    @Test
    void anExtremeOfGroupsTheCutCannotTakeFirstIsHandedBack() {
        // seven groups are too few for the order cut to pay; what a projection makes of no group, the CPU computes
        for (String sql : List.of("SELECT MAX(s) FROM (SELECT grp, SUM(amt) AS s FROM t GROUP BY grp)",
                "SELECT COALESCE(MAX(s), 0) FROM (SELECT k, SUM(amt) AS s FROM t WHERE k < 0 GROUP BY k)")) {
            assertTrue(GpuResults.explainedOnGpu(ENGINE.db(), sql).contains(ON_GPU), sql);
            GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql);
        }
    }

    @Test
    void aDivisionByZeroIsReportedAsOnTheCpu() {
        assertSameFailure("SELECT grp, SUM(v) / (COUNT(*) - COUNT(*)) FROM t GROUP BY grp");
    }

    @Test
    void anOverflowOfTheArithmeticIsReportedAsOnTheCpu() {
        assertSameFailure("SELECT grp, MAX(big) * 8 FROM t GROUP BY grp");
    }

    @Test
    void aSumPast64BitsIsReported() {
        GpuResults.assertSumOverflowOnCpuAndGpu(ENGINE.db(), "SELECT grp, SUM(big) + 1 FROM t GROUP BY grp");
        GpuResults.assertSumOverflowOnCpuAndGpu(ENGINE.db(), "SELECT SUM(big) * 1 FROM t");
    }

    @Test
    void expressionsOverKeysOrAveragesStayOnTheCpu() {
        for (String sql : List.of("SELECT grp + 1, SUM(amt) FROM t GROUP BY grp",
                "SELECT grp, AVG(amt) * 2 FROM t GROUP BY grp",
                "SELECT grp, SUM(amt) FROM t GROUP BY grp HAVING SUM(amt) > grp * 1000")) {
            assertFalse(GpuResults.explainedOnGpu(ENGINE.db(), sql).contains(ON_GPU), sql);
            GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql);
        }
    }

    /** Checks that {@code sql} fails alike on the CPU and with the GPU forced, whose plan computes it over the groups. */
    private static void assertSameFailure(String sql) {
        assertTrue(GpuResults.explainedOnGpu(ENGINE.db(), sql).contains(ON_GPU), sql);
        String[] messages = new String[2];
        int i = 0;
        for (BackendMode mode : List.of(BackendMode.CPU, BackendMode.GPU)) {
            ENGINE.db().setBackendMode(mode);
            try {
                messages[i++] = assertThrows(RuntimeException.class, () -> ENGINE.db().query(sql), mode.name()).getMessage();
            } finally {
                ENGINE.db().setBackendMode(BackendMode.AUTO);
            }
        }
        assertEquals(messages[0], messages[1], sql);
    }
}

package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: a join to an aggregation of one table by a foreign key (TPC-H Q13's orders
 * counted per customer) folds the groups on the GPU at the codes their key holds, which the
 * pipeline probes, and gives the CPU backend's answers: counts (of rows and of values that are not
 * NULL), sums, least and greatest values, the key itself; LEFT joins whose unmatched rows read
 * NULLs (no child, a child the build's filter drops, a build with no row at all), INNER joins that
 * drop them, and those whose group fails a HAVING (TPC-H Q18's orders of more than 300 units); a
 * group key computed from a count (the count of counts); probed with the referenced table's own
 * key or with another table's foreign key; a result of rows. EXPLAIN says so, and device memory
 * returns to its baseline.
 */
@Tag("gpu")
class GpuFoldedGroupsTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();
    private static final String FOLDED = "folding its groups at the codes their key holds";

    @BeforeAll
    static void data() {
        // a third of the parents have no child; some children have no parent
        new ParentChildTables(30_000, 3, 7, 9, 13, 4, 30, 250_000, 20_000, 19, 29)
                .put(ENGINE.db().catalog(), new Random(17));
    }

    private static final String PER_PARENT = "(SELECT fk, COUNT(*) AS c, COUNT(amt) AS n, SUM(id) AS s, MIN(id) AS lo, "
            + "MAX(id) AS hi FROM ch WHERE amt < 400 GROUP BY fk) t";

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT grp, SUM(COALESCE(t.c, 0)), COUNT(t.c), SUM(t.n), SUM(t.s), MIN(t.lo), MAX(t.hi) FROM p LEFT JOIN "
                + PER_PARENT + " ON p.pk = t.fk GROUP BY grp",
        "SELECT grp, COUNT(*), SUM(t.c), MAX(t.hi - t.lo) FROM p JOIN " + PER_PARENT + " ON p.pk = t.fk GROUP BY grp",
        "SELECT c, COUNT(*) AS parents FROM (SELECT pk, COALESCE(t.c, 0) AS c FROM p LEFT JOIN "
                + "(SELECT fk, COUNT(*) AS c FROM ch WHERE amt > 300 GROUP BY fk) t ON pk = t.fk) x "
                + "GROUP BY c ORDER BY parents DESC, c DESC",
        "SELECT grp, COUNT(t.fk), SUM(t.fk - pk), MIN(t.fk), SUM(t.s) FROM p LEFT JOIN " + PER_PARENT
                + " ON p.pk = t.fk GROUP BY grp",
        "SELECT grp, COUNT(*), SUM(t.s) FROM p JOIN (SELECT fk, SUM(id) AS s FROM ch GROUP BY fk HAVING COUNT(*) > 12) t "
                + "ON p.pk = t.fk GROUP BY grp",
        "SELECT grp, COUNT(*) FROM p WHERE pk IN (SELECT fk FROM ch GROUP BY fk HAVING MAX(id) > 240000) GROUP BY grp",
        "SELECT grp, COUNT(t.c), SUM(COALESCE(t.c, 7)) FROM p LEFT JOIN "
                + "(SELECT fk, COUNT(*) AS c FROM ch WHERE amt > 5000 GROUP BY fk) t ON p.pk = t.fk GROUP BY grp",
        "SELECT COUNT(*), SUM(t.c), SUM(ch.amt) FROM ch JOIN "
                + "(SELECT fk, COUNT(*) AS c FROM ch WHERE amt < 100 GROUP BY fk) t ON ch.fk = t.fk",
        "SELECT p.pk, t.c, t.hi FROM p JOIN (SELECT fk, COUNT(*) AS c, MAX(id) AS hi FROM ch GROUP BY fk) t "
                + "ON p.pk = t.fk WHERE t.c > 13"
    })
    void agreeWithTheCpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, FOLDED);
    }

    /** Aggregates no atomic folds exactly (a SUM of values that may be NULL, an average) leave the groups to the CPU, whose table the GPU probes. */
    @Test
    void otherAggregatesAreNotFolded() {
        String sql = "SELECT grp, SUM(t.s), SUM(t.a) FROM p LEFT JOIN (SELECT fk, SUM(amt) AS s, AVG(id) AS a FROM ch "
                + "GROUP BY fk) t ON p.pk = t.fk GROUP BY grp";
        assertFalse(GpuResults.explainedOnGpu(ENGINE.db(), sql).contains(FOLDED));
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql));
    }
}

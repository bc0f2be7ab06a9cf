package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: LEFT joins in GPU pipelines give the CPU backend's answers. A row whose key
 * finds no build row (none there, the build side's filter rejected it, a NULL key, an empty build
 * side) goes on with the build columns NULL, which expressions (COALESCE, IS NULL, CASE,
 * arithmetic with the row's own columns), group keys (the NULL group), a later SEMI or ANTI join's
 * key and result rows see as the CPU's join gives them; by a foreign key's code (a dense
 * dimension) and by a value unique over the build side (an aggregation's groups: TPC-H Q13's
 * orders per customer, counted again).
 */
@Tag("gpu")
class GpuLeftJoinTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        // a third of the parents have no child; some children have no parent
        new ParentChildTables(30_000, 2, 5, 9, 13, 4, 30, 250_000, 20_000, 19, 29)
                .put(ENGINE.db().catalog(), new Random(13));
    }

    private static final String SUMS = "(SELECT fk, SUM(amt) AS s, COUNT(*) AS c FROM ch WHERE amt < 400 GROUP BY fk) t";

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT p.grp, COUNT(*), SUM(amt), COUNT(p.pk) FROM ch LEFT JOIN p ON ch.fk = p.pk AND p.grp < 3 GROUP BY p.grp",
        "SELECT amt, SUM(COALESCE(p.grp, 100)), SUM(CASE WHEN p.tag IS NULL THEN 1 ELSE 0 END) "
                + "FROM ch LEFT JOIN p ON ch.fk = p.pk AND p.tag LIKE 'late%' GROUP BY amt",
        "SELECT COUNT(*), COUNT(p.pk), SUM(amt) FROM ch LEFT JOIN p ON ch.fk = p.pk AND p.grp > 100",
        "SELECT COUNT(*), COUNT(p.pk) FROM ch LEFT JOIN p ON ch.fk = p.pk WHERE ch.amt > 5000",
        "SELECT c_count, COUNT(*) AS custdist FROM (SELECT pk, COUNT(id) AS c_count FROM p LEFT JOIN ch ON pk = fk "
                + "AND amt > 300 GROUP BY pk) AS c_orders GROUP BY c_count ORDER BY custdist DESC, c_count DESC",
        "SELECT t.c, COUNT(*), SUM(p.grp) FROM p LEFT JOIN " + SUMS + " ON p.pk = t.fk GROUP BY t.c",
        "SELECT grp, SUM(pk + COALESCE(t.s, 0)), COUNT(t.s), MAX(t.c) FROM p LEFT JOIN " + SUMS + " ON p.pk = t.fk GROUP BY grp",
        "SELECT grp, COUNT(t.c), SUM(COALESCE(t.c, 7)) FROM p LEFT JOIN "
                + "(SELECT fk, COUNT(*) AS c FROM ch WHERE amt > 5000 GROUP BY fk) t ON p.pk = t.fk GROUP BY grp",
        "SELECT pk, t.s, t.c FROM p LEFT JOIN " + SUMS + " ON p.pk = t.fk WHERE p.grp = 3 AND p.pk < 20000",
        "SELECT id, p.tag, p.pk * 2 FROM ch LEFT JOIN p ON ch.fk = p.pk AND p.grp = 1 WHERE ch.amt = 7"
    })
    void agreeWithTheCpu(String sql) {
        String explained = GpuResults.explainedOnGpu(ENGINE.db(), sql);
        assertTrue(leftJoinPipeline(explained).contains("backend=gpu"), explained);
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + explained);
    }

    /**
     * A build column NULL where no row matched, then a SEMI or ANTI join's key: the GPU must not
     * mark by the code the LEFT join was probed with (the row's foreign key), which an unmatched
     * row has too. The join probes the build side's values instead, whose repeated keys hand it to
     * the CPU; either way the answer is the CPU's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"EXISTS", "NOT EXISTS"})
    void anUnmatchedRowsKeyIsNullForALaterSemiOrAntiJoin(String exists) {
        String sql = "SELECT COUNT(*), SUM(amt) FROM ch LEFT JOIN p ON ch.fk = p.pk AND p.grp < 3 WHERE " + exists
                + " (SELECT * FROM ch c2 WHERE c2.fk = p.pk AND c2.amt > 900)";
        GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql);
    }

    /** The EXPLAIN line that names the pipeline the LEFT join is in: its own, or its nearest ancestor's with one. */
    private static String leftJoinPipeline(String explained) {
        List<String> lines = explained.lines().toList();
        int at = 0;
        while (!lines.get(at).contains("Join LEFT")) {
            at++;
        }
        int indent = Integer.MAX_VALUE;
        for (int l = at; l >= 0; l--) {
            int own = lines.get(l).length() - lines.get(l).stripLeading().length();
            if (own < indent || l == at) {
                indent = own;
                if (lines.get(l).contains("[pipeline")) {
                    return lines.get(l);
                }
            }
        }
        throw new AssertionError("no pipeline above the LEFT join: " + explained);
    }
}

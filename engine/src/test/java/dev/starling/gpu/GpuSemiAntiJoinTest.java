package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: SEMI and ANTI joins in GPU pipelines give the CPU backend's answers. A join
 * that marks its probe side (EXISTS, IN, NOT EXISTS over a larger table whose foreign key points
 * at the pipeline's rows) is built on the GPU from the larger table's codes, NULL and filtered
 * rows included; an ANTI join probing a filtered dimension keeps the rows that find none, NULL
 * keys among them. A join on no keys to a scalar subquery's one row reads it like a constant,
 * NULL included. A SEMI or ANTI join between two tables' foreign keys to one table (TPC-H Q21's
 * lineitem rows of one order) marks that table's codes, and a condition comparing a column of each
 * side reads the extremes of the build side's column at the code, NULLs taking no part. On keys
 * that are no table's codes, whose build side's values repeat, the pipeline asks a hash table of
 * them whether a row's key is there, also where the CPU would mark its few probe rows.
 */
@Tag("gpu")
class GpuSemiAntiJoinTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        Random random = new Random(5);
        // a quarter of the parents have no child at all; some children have no parent
        new ParentChildTables(20_000, 3, 1, 7, 11, 3, 50, 200_000, 15_000, 17, 23).put(c, random);
        TableBuilder line = new TableBuilder(new TableSchema("li", List.of(
                new ColumnSchema("fk", DataType.INTEGER, false),
                new ColumnSchema("sup", DataType.INTEGER, true),
                new ColumnSchema("flag", DataType.INTEGER, false)), List.of(),
                List.of(new ForeignKey(List.of("fk"), "p", List.of("pk")))), c);
        for (int r = 0; r < 100_000; r++) {
            // about five lines per parent, a few suppliers each, some unknown
            line.setLong(0, 3L * random.nextInt(15_000) + 1);
            if (r % 13 == 0) {
                line.setNull(1);
            } else if (r % 997 == 5) {
                // the least's identity: a code without rows must not pass x <= y for it
                line.setLong(1, Integer.MAX_VALUE);
            } else {
                line.setLong(1, random.nextInt(4));
            }
            line.setLong(2, r % 3);
            line.endRow();
        }
        c.put(line.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT grp, COUNT(*) FROM p WHERE EXISTS (SELECT * FROM ch WHERE ch.fk = p.pk AND ch.amt > 100) GROUP BY grp",
        "SELECT grp, COUNT(*) FROM p WHERE NOT EXISTS (SELECT * FROM ch WHERE ch.fk = p.pk AND ch.amt > 500) GROUP BY grp",
        "SELECT grp, COUNT(*), MAX(pk) FROM p WHERE pk IN (SELECT fk FROM ch WHERE amt < 700) AND grp < 5 GROUP BY grp",
        "SELECT COUNT(*) FROM p WHERE NOT EXISTS (SELECT * FROM ch WHERE ch.fk = p.pk)",
        "SELECT amt, COUNT(*) FROM ch WHERE NOT EXISTS (SELECT * FROM p WHERE p.pk = ch.fk AND p.tag LIKE 'late%') "
                + "GROUP BY amt",
        "SELECT COUNT(*), SUM(amt) FROM ch WHERE NOT EXISTS (SELECT * FROM p WHERE p.pk = ch.fk AND (grp = 3 OR tag IS NULL))",
        "SELECT COUNT(*) FROM ch WHERE EXISTS (SELECT * FROM p WHERE p.pk = ch.fk AND p.grp = 2) AND amt > 500",
        "SELECT grp, COUNT(*), SUM(pk) FROM p WHERE pk > (SELECT AVG(amt) * 40 FROM ch) GROUP BY grp",
        "SELECT COUNT(*) FROM p WHERE pk > (SELECT MAX(amt) FROM ch WHERE amt > 5000) OR grp = 1",
        "SELECT flag, COUNT(*) FROM li l1 WHERE flag < 2 AND EXISTS (SELECT * FROM li l2 WHERE l2.fk = l1.fk "
                + "AND l2.sup <> l1.sup) AND NOT EXISTS (SELECT * FROM li l3 WHERE l3.fk = l1.fk AND l3.sup <> l1.sup "
                + "AND l3.flag = 1) GROUP BY flag",
        "SELECT flag, COUNT(*) FROM li l1 WHERE sup > 1 AND NOT EXISTS (SELECT * FROM li l2 WHERE l2.fk = l1.fk "
                + "AND l2.sup >= l1.sup AND l2.flag = 2) GROUP BY flag",
        "SELECT p.grp, COUNT(*) FROM li l1 JOIN p ON l1.fk = p.pk WHERE p.tag LIKE 'late%' AND NOT EXISTS "
                + "(SELECT * FROM li l2 WHERE l2.fk = l1.fk AND l2.sup <> l1.sup) GROUP BY p.grp",
        "SELECT COUNT(*) FROM li l1 WHERE flag = 1 AND NOT EXISTS (SELECT * FROM li l2 WHERE l1.fk = l2.fk "
                + "AND l1.sup <= l2.sup AND l2.flag <> 1)",
        "SELECT COUNT(*), SUM(sup) FROM li l1 WHERE flag = 0 AND EXISTS (SELECT * FROM li l2 WHERE l2.fk = l1.fk "
                + "AND l2.sup < l1.sup)",
        "SELECT sup, COUNT(*) FROM li l1 WHERE EXISTS (SELECT * FROM li l2 WHERE l2.fk = l1.fk AND l2.flag = 2) "
                + "GROUP BY sup",
        "SELECT sup, COUNT(*) FROM li l1 WHERE flag = 2 AND EXISTS (SELECT * FROM li l2 WHERE l2.fk = l1.fk "
                + "AND l2.sup <= l1.sup AND l2.flag = 0) GROUP BY sup"
    })
    void agreeWithTheCpu(String sql) {
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + ENGINE.db().explain(sql));
    }

    /**
     * A SEMI or ANTI join on keys that are no table's codes, its build side's keys repeating and
     * NULL in places: the pipeline streams the probe side through a hash table of the build keys
     * (one row a key), whichever side the CPU would have built (a join marking its few probe rows
     * too), and nothing runs on the CPU.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT grp, COUNT(*) FROM p WHERE pk IN (SELECT amt FROM ch WHERE id < 50000) GROUP BY grp",
        "SELECT pk, tag FROM p WHERE grp = 3 AND pk IN (SELECT ch.amt FROM ch JOIN p p2 ON ch.fk = p2.pk "
                + "WHERE p2.grp = 2)",
        "SELECT pk, tag FROM p WHERE grp = 3 AND pk IN (SELECT CAST(sup AS BIGINT) * 3 + 1 FROM li)",
        "SELECT pk, grp FROM p WHERE grp = 1 AND EXISTS (SELECT * FROM ch WHERE ch.amt = p.pk)",
        "SELECT COUNT(*), SUM(pk) FROM p WHERE NOT EXISTS (SELECT * FROM ch WHERE ch.amt = p.pk AND ch.id > 1000)"
    })
    void onRepeatedKeysOfNoTablesCodesAgreeWithTheCpuAndRunOnTheGpu(String sql) {
        GpuResults.assertWholeOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql);
    }
}

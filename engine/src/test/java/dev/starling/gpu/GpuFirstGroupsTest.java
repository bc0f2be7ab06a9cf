package dev.starling.gpu;


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
 * On the GPU host: under a sort with a limit by an aggregate, only the first groups are decoded
 * from the GPU's (EXPLAIN says so) and the answers are the CPU backend's: sums, counts with many
 * ties, extremes, either direction, an offset, a projection between, dense and hashed groups, a
 * limit past the groups, keys alike in all but their last bytes (the device finds the
 * cut's threshold a byte at a time), the largest or smallest value of the groups' aggregate (no
 * group at all: NULL); a sum past 64 bits is still reported, also in a group the cut would drop.
 */
@Tag("gpu")
class GpuFirstGroupsTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableBuilder g = new TableBuilder(new TableSchema("t", List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("grp", DataType.INTEGER, false),
                new ColumnSchema("amt", DataType.decimal(12, 2), false),
                new ColumnSchema("v", DataType.INTEGER, false),
                new ColumnSchema("big", DataType.BIGINT, false),
                new ColumnSchema("spike", DataType.BIGINT, false)), List.of(), List.of()), c);
        Random random = new Random(13);
        for (int r = 0; r < 300_000; r++) {
            long k = random.nextInt(100_000);
            // group 0 holds the first two rows, whose spikes together pass 64 bits
            g.setLong(0, r < 2 ? 0 : k);
            g.setLong(1, r % 10);
            g.setLong(2, random.nextInt(200_000) - 100_000);
            g.setLong(3, random.nextInt(40));
            g.setLong(4, Long.MAX_VALUE / 4 + r);
            g.setLong(5, r < 2 ? Long.MAX_VALUE / 2 + 1 : 0);
            g.endRow();
        }
        c.put(g.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT k, SUM(amt) AS s FROM t GROUP BY k ORDER BY s DESC, k LIMIT 10",
        "SELECT k, SUM(amt) AS s FROM t GROUP BY k ORDER BY s, k LIMIT 7 OFFSET 3",
        // counts of about three rows a group: the tenth one ties with thousands
        "SELECT k, COUNT(*) AS c FROM t GROUP BY k ORDER BY c DESC, k LIMIT 10",
        "SELECT k, MIN(v) AS m FROM t GROUP BY k ORDER BY m, k LIMIT 5",
        "SELECT k, MAX(v) AS m, COUNT(v) FROM t GROUP BY k ORDER BY m DESC, k LIMIT 25",
        // the projection between puts the sum first
        "SELECT SUM(amt) AS s, k FROM t GROUP BY k ORDER BY s DESC, k LIMIT 10",
        // hashed groups (k by amt passes 2^24 dense ids)
        "SELECT k, amt, SUM(v) AS s FROM t GROUP BY k, amt ORDER BY s DESC, k, amt LIMIT 10",
        // more than there are groups
        "SELECT grp, SUM(amt) AS s FROM t GROUP BY grp ORDER BY s DESC LIMIT 50",
        // keys that share all but their last bytes
        "SELECT k, MAX(big) AS m FROM t GROUP BY k ORDER BY m DESC, k LIMIT 10",
        "SELECT k, MIN(big) AS m FROM t GROUP BY k ORDER BY m, k LIMIT 3",
        // the largest or smallest of the groups' sums (TPC-H Q15's best supplier): only the first group and its ties
        "SELECT MAX(s) FROM (SELECT k, SUM(amt) AS s FROM t GROUP BY k)",
        "SELECT MIN(s), MIN(s) FROM (SELECT k, SUM(amt) AS s FROM t GROUP BY k)",
        "SELECT MAX(c) FROM (SELECT k, COUNT(*) AS c FROM t GROUP BY k)",
        "SELECT MAX(s) FROM (SELECT k, SUM(amt) AS s FROM t WHERE v > 99 GROUP BY k)"
    })
    void theFirstGroupsAgreeWithTheCpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, "of its groups, only the first");
    }

    @Test
    void aSumPast64BitsIsReportedNotCutAway() {
        String sql = "SELECT grp, SUM(big) AS s FROM t GROUP BY grp ORDER BY s DESC LIMIT 2";
        GpuResults.assertSumOverflowOnCpuAndGpu(ENGINE.db(), sql);
    }

    @Test
    void aSumPast64BitsInAGroupTheCutWouldDropIsReported() {
        // group 0 has a handful of rows, far below the tenth largest count
        String sql = "SELECT k, COUNT(*) AS c, SUM(spike) AS s FROM t GROUP BY k ORDER BY c DESC, k LIMIT 10";
        GpuResults.assertSumOverflowOnCpuAndGpu(ENGINE.db(), sql);
        // group 0's sum wraps to a negative low word, below every other group's 0
        GpuResults.assertSumOverflowOnCpuAndGpu(ENGINE.db(), "SELECT MAX(s) FROM (SELECT k, SUM(spike) AS s FROM t GROUP BY k)");
    }
}

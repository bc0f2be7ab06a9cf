package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: under a sort with a limit over a selection's rows, only the first rows in the
 * sort's first key come back from the GPU (EXPLAIN says so), and the answers are the CPU backend's:
 * decimals, doubles with negatives and both zeros, dates, a computed key, either direction, an
 * offset, thousands of rows tied with the last one, keys alike in all but their last bytes, a
 * limit past the rows; a key that may be NULL takes no cut and still agrees. Where more rows pass
 * than the kernel's first room (4M rows), or the optimizer expects so, the kernel writes their
 * order keys alone and then only the rows that reach the first rows' key: the same answers, also
 * with millions of rows tied with the last one (more than the room again), with keys that are the
 * lowest there are, and with fewer rows passing than the limit.
 */
@Tag("gpu")
class GpuFirstRowsTest {
    /**
     * More rows than the GPU's first room for a selection's rows (StarRowsRun's, 4M), and so many
     * that the optimizer expects more than that room to pass a filter it knows nothing of (half).
     */
    private static final int MANY_ROWS = 9_000_000;

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
                new ColumnSchema("big", DataType.BIGINT, false),
                new ColumnSchema("s", DataType.varchar(8), false),
                new ColumnSchema("nv", DataType.INTEGER, true)), List.of(), List.of()), c);
        Random random = new Random(17);
        for (int r = 0; r < 300_000; r++) {
            b.setLong(0, r);
            b.setLong(1, random.nextInt(2_000_000) - 1_000_000);
            b.setDouble(2, r % 1000 == 0 ? (r % 2000 == 0 ? -0.0 : 0.0) : random.nextGaussian() * 1e6);
            b.setLong(3, 8000 + random.nextInt(4000));
            b.setLong(4, random.nextInt(40));
            b.setLong(5, Long.MAX_VALUE / 4 + r);
            b.setString(6, "s" + random.nextInt(50));
            if (r % 7 == 0) {
                b.setNull(7);
            } else {
                b.setLong(7, random.nextInt(1000));
            }
            b.endRow();
        }
        c.put(b.build());
        TableBuilder many = new TableBuilder(new TableSchema("many", List.of(
                new ColumnSchema("id", DataType.BIGINT, false),
                new ColumnSchema("amt", DataType.decimal(12, 2), false),
                new ColumnSchema("d", DataType.DOUBLE, false),
                new ColumnSchema("flag", DataType.INTEGER, false),
                new ColumnSchema("top", DataType.BIGINT, false)), List.of(), List.of()), c);
        for (int r = 0; r < MANY_ROWS; r++) {
            many.setLong(0, r);
            many.setLong(1, random.nextInt(20_000_000) - 10_000_000);
            many.setDouble(2, r % 100_000 == 0 ? -0.0 : random.nextGaussian() * 1e6);
            many.setLong(3, r % 10 == 0 ? 0 : 1);
            many.setLong(4, r % 7 != 0 ? Long.MAX_VALUE : r);
            many.endRow();
        }
        c.put(many.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, amt FROM many ORDER BY amt DESC, id LIMIT 10",
        "SELECT id, d, flag FROM many WHERE flag = 1 ORDER BY d, id LIMIT 100",
        "SELECT id, d FROM many ORDER BY d DESC, id LIMIT 10",
        // 8.1M rows tie with the tenth: more than the first room, again
        "SELECT id, flag FROM many ORDER BY flag DESC, id LIMIT 10",
        // 7.7M rows of Long.MAX_VALUE: ascending, the lowest key, that of the rows that fail
        "SELECT id, top FROM many WHERE flag = 1 ORDER BY top, id LIMIT 20",
        "SELECT id, top FROM many WHERE id % 7 <> 0 ORDER BY top, id DESC LIMIT 10",
        "SELECT id, top FROM many ORDER BY top DESC, id LIMIT 10",
        "SELECT id, amt * flag AS x FROM many WHERE id % 8 <> 0 ORDER BY x, id LIMIT 10",
        // millions of rows expected, so the keys come first, and none or one passes
        "SELECT id, d FROM many WHERE d * 2.0 <> d + d OR id < 0 ORDER BY d, id LIMIT 10",
        "SELECT id, d FROM many WHERE d * 2.0 <> d + d OR id = 5 ORDER BY d, id LIMIT 10"
    })
    void pastTheFirstRoomTheKeysComeFirst(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, "of its rows, only the first");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, amt FROM r WHERE v > 3 ORDER BY amt DESC, id LIMIT 10",
        "SELECT id, amt, s FROM r ORDER BY amt, id LIMIT 7 OFFSET 3",
        "SELECT id, d FROM r ORDER BY d, id LIMIT 10",
        "SELECT id, d FROM r ORDER BY d DESC, id LIMIT 10",
        "SELECT id, d FROM r WHERE d >= 0 AND d < 1 ORDER BY d, id LIMIT 5",
        "SELECT day, id, s FROM r ORDER BY day DESC, id LIMIT 5",
        "SELECT id, amt * v AS x FROM r WHERE s <> 's3' ORDER BY x DESC, id LIMIT 10",
        // the tenth row ties with thousands
        "SELECT id, v FROM r ORDER BY v DESC, id LIMIT 10",
        // keys that share all but their last bytes
        "SELECT big, id FROM r ORDER BY big DESC LIMIT 10",
        "SELECT big, id FROM r ORDER BY big LIMIT 3",
        // more than pass
        "SELECT id, amt FROM r WHERE v = 1 ORDER BY amt, id LIMIT 100000"
    })
    void theFirstRowsAgreeWithTheCpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, "of its rows, only the first");
    }

    @Test
    void aKeyThatMayBeNullTakesNoCut() {
        String sql = "SELECT id, nv FROM r ORDER BY nv DESC NULLS FIRST, id LIMIT 10";
        String explained = GpuResults.explainedOnGpu(ENGINE.db(), sql);
        assertFalse(explained.contains("of its rows, only the first"), explained);
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + explained);
    }
}

package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.gen.ZipfCodes;
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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * On the GPU host: grouped counts through write clone layouts (uniform and Zipf-skewed keys, NULL
 * keys, a key column not starting at 0, filters and COUNT of a nullable column) and foreign key
 * joins through read layouts of the dimension (uniform and skewed, NULL keys) give the CPU backend's
 * answers for every budget and window (EXPLAIN saying whether a layout is used), device memory
 * outside the column cache (which keeps the layouts) back to its baseline.
 */
@Tag("gpu")
class GpuCloneLayoutTest {
    private static final int ROWS = 3_000_000;
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableBuilder d = new TableBuilder(new TableSchema("d", List.of(
                new ColumnSchema("k", DataType.INTEGER, false),
                new ColumnSchema("v", DataType.INTEGER, false),
                new ColumnSchema("g", DataType.varchar(4), false)), List.of("k"), List.of()), c);
        for (int k = 0; k < 1000; k++) {
            d.setLong(0, 5 * k + 1);
            d.setLong(1, k % 7);
            d.setString(2, "g" + k % 5);
            d.endRow();
        }
        c.put(d.build());
        TableSchema schema = new TableSchema("f", List.of(
                new ColumnSchema("a", DataType.INTEGER, true),
                new ColumnSchema("z", DataType.INTEGER, false),
                new ColumnSchema("b", DataType.INTEGER, true),
                new ColumnSchema("fu", DataType.INTEGER, false),
                new ColumnSchema("fz", DataType.INTEGER, true)), List.of(),
                List.of(ForeignKey.of("fu", "d", "k"), ForeignKey.of("fz", "d", "k")));
        TableBuilder f = new TableBuilder(schema, c);
        int[] zipf = ZipfCodes.generate(ROWS, 1024, 1.5, 7, ZipfCodes.Ranks.SHUFFLED);
        int[] zipfKeys = ZipfCodes.generate(ROWS, 1000, 1.0, 9, ZipfCodes.Ranks.SHUFFLED);
        Random random = new Random(11);
        for (int r = 0; r < ROWS; r++) {
            if (r % 97 == 0) {
                f.setNull(0);
            } else {
                f.setLong(0, random.nextInt(1024));
            }
            f.setLong(1, zipf[r] + 500);
            if (r % 5 == 0) {
                f.setNull(2);
            } else {
                f.setLong(2, random.nextInt(10));
            }
            f.setLong(3, 5L * random.nextInt(1000) + 1);
            if (r % 101 == 0) {
                f.setNull(4);
            } else {
                f.setLong(4, 5L * zipfKeys[r] + 1);
            }
            f.endRow();
        }
        c.put(f.build());
    }

    @ParameterizedTest
    @CsvSource({
        "on, 1, 0", "on, 2, 0", "on, 4, 16", "on, 12, 0", "auto, 2, 0", "off, 2, 0"
    })
    void countsAgreeWithTheCpu(String clones, double budget, int window) {
        ENGINE.db().query("SET clone_layouts = " + clones);
        ENGINE.db().query("SET clone_budget = " + budget);
        ENGINE.db().query("SET clone_window = " + window);
        for (String sql : List.of(
                "SELECT a, COUNT(*) FROM f GROUP BY a",
                "SELECT z, COUNT(*), COUNT(b) FROM f WHERE b <> 3 OR a IS NULL GROUP BY z",
                "SELECT z, COUNT(*) FROM f GROUP BY z",
                "SELECT COUNT(*) FROM f JOIN d ON f.fu = d.k WHERE d.v <> 3",
                "SELECT d.g, COUNT(*), SUM(f.b) FROM f JOIN d ON f.fz = d.k WHERE d.v > 1 GROUP BY d.g")) {
            String label = sql + " [clone_layouts " + clones + ", budget " + budget + ", window " + window + "]";
            ENGINE.db().setBackendMode(dev.starling.exec.BackendMode.GPU);
            String plan = ENGINE.db().explain(sql);
            if (clones.equals("on")) {
                assertTrue(plan.contains("clone layout of f."), label + ": " + plan);
            } else if (clones.equals("off")) {
                assertTrue(!plan.contains("clone layout"), label + ": " + plan);
            }
            assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), label, sql), label + ": did not run on the GPU: " + plan);
        }
    }
}

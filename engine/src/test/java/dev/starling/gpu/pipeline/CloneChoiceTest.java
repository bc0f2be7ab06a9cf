package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.gpu.clone.AccessMode;
import dev.starling.gpu.cuda.BankGeometry;
import dev.starling.gpu.clone.ColumnCodes;
import dev.starling.gpu.clone.ConflictStatistics;
import dev.starling.storage.gen.ZipfCodes;
import dev.starling.planner.PlanNodes;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When grouped counts go through a clone layout, and what EXPLAIN is told. */
class CloneChoiceTest {
    private static final long SHARED = 227 << 10;

    @Test
    void theRuleFollowsTheSettingAndTheMeasuredConflicts() {
        try (Starling db = Starling.inMemory()) {
            TableBuilder b = new TableBuilder(new TableSchema("f", List.of(
                    new ColumnSchema("u", DataType.INTEGER, false),
                    new ColumnSchema("z", DataType.INTEGER, false),
                    new ColumnSchema("x", DataType.DOUBLE, false)), List.of(), List.of()), db.catalog());
            int[] skewed = ZipfCodes.generate(200_000, 1024, 1.5, 3, ZipfCodes.Ranks.SHUFFLED);
            int[] uniform = ZipfCodes.generate(200_000, 1024, 0, 4, ZipfCodes.Ranks.SHUFFLED);
            for (int r = 0; r < skewed.length; r++) {
                b.setLong(0, uniform[r]);
                b.setLong(1, skewed[r]);
                b.setDouble(2, r);
                b.endRow();
            }
            db.catalog().put(b.build());
            TableBuilder d = new TableBuilder(new TableSchema("d", List.of(
                    new ColumnSchema("k", DataType.INTEGER, false),
                    new ColumnSchema("b", DataType.INTEGER, false)), List.of("k"), List.of()), db.catalog());
            for (int k = 0; k < 100; k++) {
                d.setLong(0, k * 3);
                d.setLong(1, k % 7);
                d.endRow();
            }
            db.catalog().put(d.build());
            TableBuilder g = new TableBuilder(new TableSchema("g", List.of(
                    new ColumnSchema("fk", DataType.INTEGER, false)), List.of(), List.of(ForeignKey.of("fk", "d", "k"))),
                    db.catalog());
            for (int r = 0; r < 10_000; r++) {
                g.setLong(0, (r % 100) * 3);
                g.endRow();
            }
            db.catalog().put(g.build());
            SqlPlanner planner = new SqlPlanner(db.catalog());
            Settings auto = Settings.DEFAULT;
            Settings on = auto.with("clone_layouts", "on");
            CloneChoice z = choose(planner, db.catalog(), "SELECT z, COUNT(*) FROM f GROUP BY z", auto);
            assertFalse(z.used(), "on this hardware auto uses no layout: " + z.reason());
            assertTrue(z.reason().matches("no clone layout: f.z has \\d+\\.\\d\\d write rounds per warp as stored, .*"), z.reason());
            assertTrue(choose(planner, db.catalog(), "SELECT u, COUNT(*) FROM f GROUP BY u", auto).reason().startsWith("no clone layout: f.u has 3."));
            CloneChoice forced = choose(planner, db.catalog(), "SELECT z, COUNT(*) FROM f GROUP BY z", on);
            assertTrue(forced.used() && forced.mode() == AccessMode.WRITE, forced.reason());
            assertEquals("clone layout of f.z (write budget 2.0 window 0): clone_layouts is on", forced.reason());
            assertEquals(CloneChoice.NONE, choose(planner, db.catalog(), "SELECT z, COUNT(*) FROM f GROUP BY z", auto.with("clone_layouts", "off")));
            assertEquals(CloneChoice.NONE, choose(planner, db.catalog(), "SELECT z, SUM(x) FROM f GROUP BY z", on), "sums are not counters");
            assertEquals(CloneChoice.NONE, choose(planner, db.catalog(), "SELECT z, u, COUNT(*) FROM f GROUP BY z, u", on));
            CloneChoice big = choose(planner, db.catalog(), "SELECT z, COUNT(*) FROM f GROUP BY z", on.with("clone_budget", "64"));
            assertFalse(big.used());
            assertTrue(big.reason().contains("need 262144 bytes of shared memory, a block has 232448"), big.reason());
            CloneChoice read = choose(planner, db.catalog(), "SELECT COUNT(*) FROM g JOIN d ON g.fk = d.k WHERE d.b <> 3", on);
            assertTrue(read.used() && read.mode() == AccessMode.READ && read.dimension() == 0, read.reason());
            assertEquals("clone layout of g.fk (read budget 2.0): clone_layouts is on", read.reason());
            String readAuto = choose(planner, db.catalog(), "SELECT COUNT(*) FROM g JOIN d ON g.fk = d.k WHERE d.b <> 3", auto).reason();
            assertTrue(readAuto.startsWith("no clone layout: g.fk has 1.28 read rounds per warp as stored"), readAuto);
        }
    }

    private static CloneChoice choose(SqlPlanner planner, Catalog catalog, String sql, Settings settings) {
        AggregateNode a = PlanNodes.all(planner.plan(sql).plan(), AggregateNode.class).get(0);
        StarPipeline p;
        try {
            p = StarPipelineCompiler.compile(a, catalog);
        } catch (Unsupported e) {
            throw new AssertionError(e);
        }
        return CloneChoice.of(p, settings, BankGeometry.DEFAULT, SHARED,
                (column, window) -> ConflictStatistics.of(ColumnCodes.of(column, 0).codes(), BankGeometry.DEFAULT, window));
    }
}

package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.gpu.plan.GpuPlanner;
import dev.starling.gpu.plan.StoredConflicts;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the GPU planner says of a fact scan, planned for an H100 without one: how many chunks the
 * zone maps leave it, and that fact columns past the device memory budget stream through device
 * buffers.
 */
class FactScanPlanTest {
    private static final DeviceProfile H100 = DeviceProfile.named("h100-80gb");
    private static final Settings GPU = Settings.DEFAULT.withBackend(BackendMode.GPU);
    private static final Catalog CATALOG = Catalog.inMemory();

    @BeforeAll
    static void events() {
        TableBuilder b = new TableBuilder(new TableSchema("events", List.of(
                new ColumnSchema("ts", DataType.BIGINT, false),
                new ColumnSchema("v", DataType.BIGINT, false)), List.of(), List.of()), CATALOG);
        for (int r = 0; r < 20 * Table.CHUNK_ROWS; r++) {
            b.setLong(0, r);
            b.setLong(1, r % 7);
            b.endRow();
        }
        CATALOG.put(b.build());
    }

    @Test
    void zoneMapsLeaveTheChunksThatMayMatch() {
        String reason = reason(H100.defaultBudget(), "SELECT COUNT(*), SUM(v) FROM events WHERE ts BETWEEN "
                + (5L * Table.CHUNK_ROWS - 1) + " AND " + 5L * Table.CHUNK_ROWS);
        assertTrue(reason.contains("zone maps leave 2 of 20 chunks"), reason);
        assertFalse(reason.contains("streamed"), reason);
        String all = reason(H100.defaultBudget(), "SELECT COUNT(*), SUM(v) FROM events WHERE v > 3");
        assertFalse(all.contains("zone maps"), all);
    }

    @Test
    void factColumnsPastTheBudgetStream() {
        // v: 10.5 MB of fact column
        String reason = reason(8 << 20, "SELECT COUNT(*), SUM(v) FROM events WHERE v > 3");
        assertTrue(reason.contains("fact columns streamed through device buffers"), reason);
        assertTrue(reason.contains("device memory ~4.72 MB"), "three buffers of three chunks: " + reason);
        assertFalse(reason(16 << 20, "SELECT COUNT(*), SUM(v) FROM events WHERE v > 3").contains("streamed"));
    }

    private static String reason(long budget, String sql) {
        GpuPlanner planner = new GpuPlanner(H100, budget, c -> false, new StoredConflicts(H100.banks()), CATALOG);
        PipelineGraph graph = PipelineGraph.of(new SqlPlanner(CATALOG).plan(sql).plan(), planner, GPU);
        List<PipelineGraph.Pipeline> onGpu = graph.pipelines().stream()
                .filter(p -> p.role() == PipelineGraph.Role.AGGREGATE_INPUT).toList();
        assertEquals(1, onGpu.size(), sql);
        return onGpu.get(0).placement().reason();
    }
}

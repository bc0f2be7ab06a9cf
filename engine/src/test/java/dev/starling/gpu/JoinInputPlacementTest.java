package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.accel.Placement;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.gpu.plan.GpuPlanner;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.gen.TpchGenerator;
import org.junit.jupiter.api.Test;

/**
 * Under {@code auto}, the GPU produces at most a bounded number of result rows, which it hands back
 * whole where the CPU would stream them to the client; the rows of a join's input, which a join on
 * the CPU consumes whole before anything above it runs, it produces however many are expected.
 * Planned for the H100's profile, without a GPU.
 */
class JoinInputPlacementTest {
    @Test
    void manyRowsGoToTheGpuForAJoinsInputButNotForTheResult() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.2, "");
            SqlPlanner.Plan planned = new SqlPlanner(db.catalog())
                    .plan("SELECT l_orderkey, l_partkey FROM lineitem WHERE l_quantity < 40");
            GpuPlanner planner = GpuPlanner.forProfile(DeviceProfile.H100_80GB, db.catalog());
            Settings auto = Settings.DEFAULT.withBackend(BackendMode.AUTO);
            Placement result = planner.rows(planned.plan(), null, planned.estimates(), auto);
            assertFalse(result.accelerated(), result.describe());
            assertTrue(result.reason().endsWith("result rows: the GPU hands rows back whole, the CPU streams them"),
                    result.describe());
            Placement joinInput = planner.joinInput(planned.plan(), planned.estimates(), auto);
            assertTrue(joinInput.accelerated(), joinInput.describe());
        }
    }
}

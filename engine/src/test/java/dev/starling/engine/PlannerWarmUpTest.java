package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.gpu.cuda.DeviceProfile;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's statements all plan and run, on the CPU and placed for a GPU profile, over its own
 * catalog, which a user's engine never sees.
 */
class PlannerWarmUpTest {

    @Test
    void everyStatementRunsOverItsOwnCatalog() {
        try (Starling user = Starling.inMemory()) {
            assertDoesNotThrow(() -> PlannerWarmUp.run(Optional.empty()));
            assertDoesNotThrow(() -> PlannerWarmUp.run(Optional.of(DeviceProfile.H100_80GB)));
            assertDoesNotThrow(() -> PlannerWarmUp.inBackground(Optional.empty()).get(2, TimeUnit.MINUTES));
            assertEquals(0, user.catalog().tables().size());
        }
    }
}

package dev.starling.gpu;

import dev.starling.exec.run.PipelineGraph;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.exec.run.Executor;
import dev.starling.exec.QueryContext;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.PlanNode;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.Catalog;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * On the GPU host: a device memory budget too small for a pipeline sends it to the CPU instead of
 * failing, also when the GPU was to share it with the CPU workers.
 */
@Tag("gpu")
class GpuFallbackTest {

    @ParameterizedTest
    @EnumSource(value = BackendMode.class, names = {"GPU", "BOTH"})
    void aBudgetTooSmallStillAnswers(BackendMode mode) {
        GpuBackend gpu = GpuBackend.detect(0, 64 << 10).orElse(null);
        assumeTrue(gpu != null, "no GPU");
        Catalog catalog = Catalog.inMemory();
        SsbGenerator.generate(catalog, 0.1, "");
        PlanNode plan = new SqlPlanner(catalog).plan(SsbQueries.query("2.1")).plan();
        try (gpu; Executor cpu = new Executor(4, catalog); Executor withGpu = new Executor(4, catalog, gpu)) {
            var expected = cpu.collect(plan);
            Settings settings = Settings.DEFAULT.withBackend(mode);
            var actual = withGpu.collect(PipelineGraph.of(plan, gpu.planner(catalog), settings), new QueryContext(settings));
            assertEquals(expected.rows(), actual.rows());
            assertEquals(0, gpu.runs());
            assertEquals(0, gpu.device().memory().used());
        }
    }
}

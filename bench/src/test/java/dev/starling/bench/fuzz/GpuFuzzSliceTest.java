package dev.starling.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.gpu.GpuBackend;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.TpchGenerator;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: the CI slice's random queries with the GPU forced give the CPU backend's
 * answers (which the CI slice compares with DuckDB's), and device memory returns to where it was.
 */
@Tag("gpu")
class GpuFuzzSliceTest {
    private static final int QUERIES = 300;

    @ParameterizedTest
    @ValueSource(strings = {"tpch", "ssb"})
    void randomQueriesOnTheGpuAgreeWithTheCpu(String workload) {
        try (Starling db = Starling.inMemory()) {
            assumeTrue(db.gpu().isPresent(), "no GPU");
            if (workload.equals("tpch")) {
                TpchGenerator.generate(db.catalog(), 0.01, "");
            } else {
                SsbGenerator.generate(db.catalog(), 0.01, "");
            }
            QueryGenerator generator = new QueryGenerator(FuzzSchema.of(db), FuzzSliceTest.SEED);
            DifferentialRun run = new DifferentialRun(Engine.starling(db, BackendMode.GPU, Duration.ofSeconds(60)),
                    Engine.starling(db, BackendMode.CPU, Duration.ofSeconds(60)));
            GpuBackend gpu = db.gpu().orElseThrow();
            long baseline = gpu.device().memory().used() - gpu.columnCache().heldBytes();
            for (int n = 0; n < QUERIES; n++) {
                run.check(n, generator.query(n));
            }
            assertTrue(run.failures().isEmpty(), run.failures().size() + " of " + QUERIES + " queries failed:\n" + run.report());
            assertEquals(baseline, gpu.device().memory().used() - gpu.columnCache().heldBytes(),
                    "device memory outside the column cache back to its baseline");
        }
    }
}

package dev.starling.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.gpu.pipeline.RunStats;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The bench reads the GPU's kernel time and floor from EXPLAIN ANALYZE lines as the GPU backend writes them. */
class GpuAccountTest {

    private static String line(double kernelMillis, long factBytes) {
        RunStats stats = new RunStats(1.0, 0.5, 0.25, kernelMillis, 0.125, 0, factBytes, 0, 7, 0, 0, 0, 0, 3,
                "resident", false);
        return "  AggregateNode  [pipeline 2, backend=gpu]  {ran on gpu; 1.50 ms, 7 rows; "
                + stats.describe(2e12, 0) + "}";
    }

    @Test
    void sumsTheKernelsAndFloorsOfTheGpuPipelines() {
        List<String> lines = List.of("ran in 3.00 ms, 7 rows", line(0.75, 2_000_000_000L),
                "    ScanNode lineitem  [pipeline 1, backend=cpu]  {ran on cpu; 0.40 ms, 100 rows}", line(0.5, 1_000_000_000L));
        GpuAccount account = GpuAccount.of(lines).orElseThrow();
        assertEquals(1.25, account.kernelMillis(), 1e-9);
        assertEquals(1.5, account.floorMillis(), 1e-9, "2 GB and 1 GB at 2 TB/s");
    }

    @Test
    void aQueryTheCpuRanHasNone() {
        assertEquals(Optional.empty(), GpuAccount.of(List.of("ran in 3.00 ms, 7 rows",
                "  AggregateNode  [pipeline 1, backend=cpu]  {ran on cpu; 3.00 ms, 7 rows}")));
        assertTrue(GpuAccount.of(List.of()).isEmpty());
    }
}

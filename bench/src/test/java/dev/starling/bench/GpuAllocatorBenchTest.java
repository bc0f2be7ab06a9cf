package dev.starling.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * On the GPU host: the seeds' page pool (RW-BM, CoRW, pages per warp) and slab hash, and the
 * engine's bump counter and group table beside them, write every join row and find every group,
 * also when the pool is mostly taken and when the slab hash must grow far past its buckets (the
 * benchmark fails unless every result matches the sums computed on the host).
 */
@Tag("gpu")
class GpuAllocatorBenchTest {
    @Test
    void everyAllocatorAndTableGivesTheHostsSums() {
        try (GpuDevice device = GpuDevice.open(0, 0)) {
            assumeTrue(device != null);
        } catch (GpuException e) {
            assumeTrue(false, "no GPU: " + e.getMessage());
        }
        int exit = new CommandLine(new AllocatorBenchMain()).execute("--probe-rows", "1000003", "--fanout", "1,4",
                "--page-bytes", "512,2048", "--free", "1,0.25", "--group-rows", "2000003", "--groups", "1,100,300000",
                "--runs", "1");
        assertEquals(0, exit, "a result differed from the host's sums");
    }
}

package dev.starling.gpu.pipeline;

import dev.starling.exec.plan.Quantities;

/**
 * What one GPU pipeline run did and where its time went: building the dimensions on the CPU,
 * preparing the group layout and dimension arrays, copying to the device (columns not yet
 * resident, dimension arrays), the aggregate kernel alone (CUDA events), and reading back and
 * decoding the groups; of the copy time, the part placing hash tables (copying them, placing hybrid
 * ones, or running partitioned joins); the bytes of fact columns the kernel reads (its floor at
 * device bandwidth), the bytes copied, the dense group count, the bytes of hash tables left in host
 * memory (hybrid tables, read over the link), how many hash joins ran partitioned and the bytes of
 * their partitions and matches spilled to host memory, the bytes of aggregate states left in host
 * memory (updated over the link), and how many of the fact table's chunks the GPU ran (all of them,
 * unless its zone maps skipped some, or it shared them with the CPU workers; then the kernel time is
 * the time it took them), how its fact scan read them ({@link FactScan#describe}), and whether
 * that scan streamed the fact columns through device buffers.
 */
public record RunStats(double buildMillis, double prepareMillis, double copyMillis, double kernelMillis,
                       double decodeMillis, double tableMillis, long factBytes, long uploadedBytes, long groups,
                       long hostTableBytes, int partitionedJoins, long spilledBytes, long hostStateBytes,
                       int gpuChunks, String scan, boolean streamed) {

    /**
     * Where the run's time went, for EXPLAIN ANALYZE: the kernel beside the time its fact columns
     * take to read whole at {@code deviceBytesPerSecond} (its floor, unless it reads only some of
     * their rows); readying its inputs on the device (columns leased, copied if not resident,
     * dimension arrays uploaded, hash tables built); the preparation (the dimensions built and the
     * group layout, less {@code inputsMillis}, the CPU's run of the build sides it reads, which
     * EXPLAIN ANALYZE shows as their own pipelines); and reading back and decoding the result.
     */
    public String describe(double deviceBytesPerSecond, double inputsMillis) {
        return String.format("kernel %.2f ms (its columns, %s, read whole in %.2f ms), inputs on the device in "
                        + "%.2f ms (%s copied), prepared in %.2f ms, results back in %.2f ms; fact scan: %s", kernelMillis,
                Quantities.bytes(factBytes), factBytes / deviceBytesPerSecond * 1e3, copyMillis,
                Quantities.bytes(uploadedBytes), Math.max(0, buildMillis - inputsMillis) + prepareMillis, decodeMillis, scan);
    }
}

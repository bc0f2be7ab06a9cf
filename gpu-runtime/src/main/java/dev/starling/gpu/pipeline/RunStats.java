package dev.starling.gpu.pipeline;

/**
 * What one GPU pipeline run did and where its time went: building the dimensions on the CPU,
 * preparing the group layout and dimension arrays, copying to the device (columns not yet
 * resident, dimension arrays), the aggregate kernel alone (CUDA events), and reading back and
 * decoding the groups; the bytes of fact columns the kernel reads (its floor at device
 * bandwidth), the bytes copied, the dense group count, and the bytes of hash tables left in host
 * memory (hybrid tables, read over the link).
 */
public record RunStats(double buildMillis, double prepareMillis, double copyMillis, double kernelMillis,
                       double decodeMillis, long factBytes, long uploadedBytes, long groups, long hostTableBytes) { }

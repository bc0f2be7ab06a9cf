package dev.starling.gpu.pipeline;

/**
 * What one GPU pipeline run did: kernel time (the aggregate kernel alone, by CUDA events), the
 * bytes of fact columns it reads (its floor at device bandwidth), the bytes it had to copy to the
 * device first (columns not yet resident, dimension arrays), and its dense group count.
 */
public record RunStats(double kernelMillis, long factBytes, long uploadedBytes, long groups) { }

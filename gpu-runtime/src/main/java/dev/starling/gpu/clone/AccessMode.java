package dev.starling.gpu.clone;

/** How a kernel uses the shared-memory entries a column's codes index. */
public enum AccessMode {
    /**
     * Reads (a dimension in a foreign key join): threads reading one address share a broadcast,
     * so only distinct addresses in one bank conflict.
     */
    READ,
    /**
     * Atomic updates (aggregates in a group-by): every access of a warp needs a bank of its own,
     * and one address updated by several threads, or by nearby warps, serializes.
     */
    WRITE
}

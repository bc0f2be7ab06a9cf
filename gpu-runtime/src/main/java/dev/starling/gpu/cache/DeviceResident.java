package dev.starling.gpu.cache;

/** Something the column cache keeps in device memory for a column: its values, or data derived from them. */
public interface DeviceResident {
    /** Bytes of its data. */
    long bytes();

    /** Bytes of device memory it holds: its data's, rounded up to the blocks under it. */
    long heldBytes();

    /** Frees its device memory; the cache calls it once, when the entry leaves. */
    void free();
}

package dev.starling.gpu.cache;

/** Something the column cache keeps in device memory for a column: its values, or data derived from them. */
public interface DeviceResident {
    long bytes();

    /** Frees its device memory; the cache calls it once, when the entry leaves. */
    void free();
}

package dev.starling.gpu.clone;

/**
 * A code column rewritten for a shared-memory table with clones: row r accesses entry
 * {@code slots[r]}, which holds a copy of value {@code cloneMap[slots[r]]} (the row's original
 * code); value v has {@code copies[v]} copies; the table has {@code cloneMap.length} entries, -1
 * marking one no copy took (the banks filled unevenly).
 */
public record CloneLayout(int[] slots, int[] cloneMap, int[] copies, long optimizeNanos) {

    /** Entries in the replicated table per original value. */
    public double copiesPerValue() {
        return copies.length == 0 ? 0 : (double) cloneMap.length / copies.length;
    }
}

package dev.starling.exec.op;

import dev.starling.exec.vector.Vector;

/** Turns a BOOLEAN vector into the positions of its TRUE rows (NULL counts as not TRUE). */
final class Selection {
    private Selection() { }

    /** Writes the TRUE positions into {@code sel} and returns how many there are. */
    static int of(Vector condition, int n, int[] sel) {
        long[] v = condition.longs();
        boolean[] nulls = condition.nulls();
        int count = 0;
        if (nulls == null) {
            for (int i = 0; i < n; i++) {
                sel[count] = i;
                count += (int) v[i];
            }
        } else {
            for (int i = 0; i < n; i++) {
                sel[count] = i;
                count += nulls[i] ? 0 : (int) v[i];
            }
        }
        return count;
    }
}

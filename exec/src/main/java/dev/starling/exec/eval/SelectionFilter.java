package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;

/**
 * A compiled condition that narrows a selection instead of producing a BOOLEAN vector: the rows
 * still selected after one conjunct are the only ones the next looks at, and no column is gathered
 * until the surviving rows are known. Instances hold per-dictionary caches, so each worker compiles its own.
 */
public abstract class SelectionFilter {
    /**
     * Keeps, of the batch rows {@code sel[0..n)} (ascending), those where the condition is TRUE,
     * moving them to the front of {@code sel}; returns how many there are.
     */
    public abstract int filter(Batch batch, int[] sel, int n);

    /** Fills {@code sel[0..n)} with 0, 1, ..., n - 1. */
    public static void identity(int[] sel, int n) {
        for (int i = 0; i < n; i++) {
            sel[i] = i;
        }
    }

    /** Conditions applied in order, each to the rows the previous ones kept. */
    public static SelectionFilter allOf(SelectionFilter... filters) {
        if (filters.length == 1) {
            return filters[0];
        }
        return new SelectionFilter() {
            @Override
            public int filter(Batch batch, int[] sel, int n) {
                for (int i = 0; i < filters.length && n > 0; i++) {
                    n = filters[i].filter(batch, sel, n);
                }
                return n;
            }
        };
    }
}

package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;

/**
 * The rows of a batch that a conditional sub-expression must see (the right side of AND where the
 * left is not FALSE, a CASE branch where its condition holds), gathering only the columns it reads.
 * Evaluating a branch only on its rows keeps errors such as a division by zero in an untaken branch
 * from surfacing, and saves the work.
 */
final class SubBatch {
    private SubBatch() { }

    static Batch of(Batch batch, int[] sel, int n, int[] columns) {
        if (n == batch.rows() && isIdentity(sel, n)) {
            return batch;
        }
        Vector[] out = new Vector[batch.width()];
        for (int c : columns) {
            out[c] = batch.column(c).gather(sel, n);
        }
        return new Batch(out, n);
    }

    private static boolean isIdentity(int[] sel, int n) {
        for (int i = 0; i < n; i++) {
            if (sel[i] != i) {
                return false;
            }
        }
        return true;
    }

    static int[] all(int n) {
        int[] sel = new int[n];
        for (int i = 0; i < n; i++) {
            sel[i] = i;
        }
        return sel;
    }
}

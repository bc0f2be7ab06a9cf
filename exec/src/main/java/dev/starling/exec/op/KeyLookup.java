package dev.starling.exec.op;

import dev.starling.exec.vector.Batch;

/**
 * Looks a batch's rows up in a {@link JoinTable} by their key columns: per row the table's key id
 * (hash table) or row (dense or shared table), or -1 when the row's key is NULL or absent from the table.
 * Each worker needs its own: the encoder keeps per-batch state.
 */
final class KeyLookup {
    private final JoinTable table;
    private final KeyEncoder encoder;
    private final int[] keyColumns;

    KeyLookup(JoinTable table, int[] keyColumns) {
        this.table = table;
        this.encoder = new KeyEncoder(table.domains, table.interner, false);
        this.keyColumns = keyColumns;
    }

    int[] find(Batch in, int n) {
        int[] out = new int[n];
        boolean[] nullKey = null;
        for (int k : keyColumns) {
            boolean[] nulls = in.column(k).nulls();
            if (nulls != null) {
                nullKey = nullKey == null ? new boolean[n] : nullKey;
                for (int i = 0; i < n; i++) {
                    nullKey[i] |= nulls[i];
                }
            }
        }
        if (table.isDense()) {
            long[] codes = in.column(keyColumns[0]).longs();
            for (int i = 0; i < n; i++) {
                out[i] = nullKey != null && nullKey[i] ? -1 : table.denseRow(codes[i]);
            }
            return out;
        }
        long[][] keys = new long[keyColumns.length][];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = encoder.encode(k, in.column(keyColumns[k]), n);
            for (int i = 0; i < n; i++) {
                if (keys[k][i] == KeyEncoder.UNKNOWN) {
                    nullKey = nullKey == null ? new boolean[n] : nullKey;
                    nullKey[i] = true;
                }
            }
        }
        if (table.isShared()) {
            for (int i = 0; i < n; i++) {
                out[i] = nullKey != null && nullKey[i] ? -1 : table.sharedRow(keys[0][i]);
            }
            return out;
        }
        int[] hashes = KeyEncoder.hashes(keys, n);
        for (int i = 0; i < n; i++) {
            out[i] = nullKey != null && nullKey[i] ? -1 : table.find(keys, i, hashes[i]);
        }
        return out;
    }
}

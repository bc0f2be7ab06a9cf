package dev.starling.exec.op;

import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StringInterner;
import java.util.Arrays;

/**
 * The build side of a join, materialized, and its lookup structure: for a dense join an array from
 * code to build row (-1: none), for a hash join a key table whose ids head chains of build rows
 * with equal keys, for a cross join nothing. Build rows with a NULL key can match nothing and are
 * left out. Read-only once built, so all probe workers share it.
 */
public final class JoinTable {
    final Batch rows;
    final KeyEncoder.Domain[] domains;
    final StringInterner interner = new StringInterner();
    private final int[] denseRowOf;
    private final KeyTable keys;
    private final int[] heads;
    private final int[] next;

    JoinTable(HashJoinNode join, Batch rows) {
        this.rows = rows;
        int n = rows.rows();
        int[] probeKeys = join.probeKeys();
        int[] buildKeys = join.buildKeys();
        domains = new KeyEncoder.Domain[buildKeys.length];
        for (int k = 0; k < buildKeys.length; k++) {
            domains[k] = KeyEncoder.Domain.common(join.probe().output().get(probeKeys[k]).type(),
                    join.build().output().get(buildKeys[k]).type());
        }
        if (join.dense()) {
            denseRowOf = new int[Math.toIntExact(join.denseRange())];
            Arrays.fill(denseRowOf, -1);
            long[] ids = rows.column(buildKeys[0]).longs();
            for (int r = 0; r < n; r++) {
                if (ids[r] < 0 || ids[r] >= denseRowOf.length) {
                    throw new IllegalStateException("dense join build key " + ids[r] + " is outside [0, "
                            + denseRowOf.length + ")");
                }
                denseRowOf[(int) ids[r]] = r;
            }
            keys = null;
            heads = null;
            next = null;
        } else if (buildKeys.length == 0) {
            denseRowOf = null;
            keys = null;
            heads = null;
            next = null;
        } else {
            denseRowOf = null;
            KeyEncoder encoder = new KeyEncoder(domains, interner, true);
            long[][] cols = new long[buildKeys.length][];
            boolean[] anyNull = new boolean[n];
            for (int k = 0; k < cols.length; k++) {
                var v = rows.column(buildKeys[k]);
                cols[k] = encoder.encode(k, v, n);
                if (v.nulls() != null) {
                    for (int r = 0; r < n; r++) {
                        anyNull[r] |= v.nulls()[r];
                    }
                }
            }
            int[] hashes = KeyEncoder.hashes(cols, n);
            keys = new KeyTable(cols.length, n);
            heads = new int[Math.max(16, n)];
            Arrays.fill(heads, -1);
            next = new int[n];
            for (int r = n - 1; r >= 0; r--) {
                if (anyNull[r]) {
                    continue;
                }
                int id = keys.findOrInsert(cols, r, hashes[r]);
                next[r] = heads[id];
                heads[id] = r;
            }
        }
    }

    boolean isDense() {
        return denseRowOf != null;
    }

    boolean isCross() {
        return denseRowOf == null && keys == null;
    }

    /** The build row for a dense code, or -1. */
    int denseRow(long code) {
        return code < 0 || code >= denseRowOf.length ? -1 : denseRowOf[(int) code];
    }

    /** The first build row with the probe row's key, or -1. */
    int first(long[][] probeKeys, int row, int hash) {
        int id = keys.find(probeKeys, row, hash);
        return id < 0 ? -1 : heads[id];
    }

    /** The build row after {@code row} with the same key, or -1. */
    int next(int row) {
        return next[row];
    }
}

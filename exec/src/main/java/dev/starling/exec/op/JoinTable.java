package dev.starling.exec.op;

import dev.starling.exec.pipeline.SharedBuild;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StringInterner;
import java.util.Arrays;

/**
 * The build side of a join, materialized, and its lookup structure: for a dense join an array from
 * code to build row (-1: none), for a hash join a key table and, per key id, the range of its
 * build rows in an array of rows ordered by key, for a cross join nothing; or the table an
 * accelerator shares with the CPU workers ({@link SharedBuild}), from unique keys to build rows.
 * Build rows with a NULL key can match nothing and are left out. Read-only once built, so all
 * probe workers share it.
 */
public final class JoinTable {
    final Batch rows;
    final KeyEncoder.Domain[] domains;
    final StringInterner interner = new StringInterner();
    private final int[] denseRowOf;
    private final KeyTable keys;
    private final int[] start;
    private final int[] rowsByKey;
    private final SharedBuild shared;

    private JoinTable(HashJoinNode join, SharedBuild shared) {
        this.rows = shared.rows();
        this.domains = domains(join);
        this.shared = shared;
        denseRowOf = null;
        keys = null;
        start = null;
        rowsByKey = null;
    }

    /**
     * The bytes the table of {@code join} takes over {@code rows} build rows: the rows themselves
     * (every value a long or a double) and the lookup, an int per code for a dense join, a key
     * table and each row's place in key order for a hash join.
     */
    public static long bytesFor(HashJoinNode join, long rows) {
        long materialized = 8L * rows * (join.markProbe() ? join.probe() : join.build()).output().size();
        if (join.dense()) {
            return materialized + 4L * join.denseRange();
        }
        int keys = join.buildKeys().length;
        return keys == 0 ? materialized : materialized + KeyTable.bytesFor(rows, keys) + 8L * rows;
    }

    /** The table over the build side that the accelerator built for both processors. */
    public static JoinTable shared(HashJoinNode join, SharedBuild build) {
        return new JoinTable(join, build);
    }

    JoinTable(HashJoinNode join, Batch rows) {
        this.rows = rows;
        this.shared = null;
        int n = rows.rows();
        int[] buildKeys = join.buildKeys();
        domains = domains(join);
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
            start = null;
            rowsByKey = null;
        } else if (buildKeys.length == 0) {
            denseRowOf = null;
            keys = null;
            start = null;
            rowsByKey = null;
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
            int[] ids = new int[n];
            for (int r = 0; r < n; r++) {
                // Build rows often come clustered by key (a fact table in key order): a run shares one lookup.
                ids[r] = anyNull[r] ? -1 : r > 0 && ids[r - 1] >= 0 && hashes[r] == hashes[r - 1]
                        && KeyTable.sameKey(cols, r, r - 1) ? ids[r - 1] : keys.findOrInsert(cols, r, hashes[r]);
            }
            // Rows grouped by key id (ascending row order within a key), so a probe reads its matches contiguously.
            start = new int[keys.size() + 1];
            for (int id : ids) {
                if (id >= 0) {
                    start[id + 1]++;
                }
            }
            for (int id = 0; id < keys.size(); id++) {
                start[id + 1] += start[id];
            }
            rowsByKey = new int[start[keys.size()]];
            int[] fill = Arrays.copyOf(start, keys.size());
            for (int r = 0; r < n; r++) {
                if (ids[r] >= 0) {
                    rowsByKey[fill[ids[r]]++] = r;
                }
            }
        }
    }

    /** Per key column, the domain in which both sides' keys compare. */
    private static KeyEncoder.Domain[] domains(HashJoinNode join) {
        int[] probeKeys = join.probeKeys();
        int[] buildKeys = join.buildKeys();
        KeyEncoder.Domain[] out = new KeyEncoder.Domain[buildKeys.length];
        for (int k = 0; k < buildKeys.length; k++) {
            out[k] = KeyEncoder.Domain.common(join.probe().output().get(probeKeys[k]).type(),
                    join.build().output().get(buildKeys[k]).type());
        }
        return out;
    }

    /**
     * The table over a {@code markProbe} join's probe rows, keyed by its probe keys, that its build
     * side streams through: the join with its sides' roles exchanged.
     */
    static JoinTable overProbeSide(HashJoinNode join, Batch probeRows) {
        return new JoinTable(new HashJoinNode(join.build(), join.probe(), join.kind(), join.buildKeys(), join.probeKeys(),
                null, join.dense(), join.denseRange()), probeRows);
    }

    boolean isDense() {
        return denseRowOf != null;
    }

    boolean isCross() {
        return denseRowOf == null && keys == null && shared == null;
    }

    boolean isShared() {
        return shared != null;
    }

    /** Whether a lookup gives the build row itself (a dense or shared table: one row per key) rather than a key id. */
    boolean findsRows() {
        return denseRowOf != null || shared != null;
    }

    /** The build row with (encoded) key {@code key} in a shared table, or -1. */
    int sharedRow(long key) {
        return shared.rowOf(key);
    }

    /** The share of dense codes that have a build row: how much of the probe side a dense join can keep. */
    double denseCoverage() {
        return denseRowOf.length == 0 ? 0 : (double) rows.rows() / denseRowOf.length;
    }

    /** The build row for a dense code, or -1. */
    int denseRow(long code) {
        return code < 0 || code >= denseRowOf.length ? -1 : denseRowOf[(int) code];
    }

    /** The key id of the probe row's key, or -1 when no build row has it. */
    int find(long[][] probeKeys, int row, int hash) {
        return keys.find(probeKeys, row, hash);
    }

    /** The build rows with key id {@code id} are {@code rowsByKey()[start(id) .. start(id + 1))}. */
    int start(int id) {
        return start[id];
    }

    int[] rowsByKey() {
        return rowsByKey;
    }
}

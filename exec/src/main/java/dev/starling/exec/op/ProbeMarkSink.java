package dev.starling.exec.op;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.eval.VecExpr;
import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The streaming half of a {@code markProbe} SEMI or ANTI join: each build-side batch looks its keys
 * up in the table over the probe rows and marks the probe rows it matches (whose pair passes the
 * residual). A probe row already marked is not paired again: one passing match decides it. Then
 * {@link #result} holds the probe rows the join keeps.
 */
public final class ProbeMarkSink implements Sink<ProbeMarkSink.Local> {
    /** Residual pairs are evaluated in runs of at most this many, however many probe rows share a key. */
    private static final int MAX_PAIRS = 16 * Batch.ROWS;

    private final HashJoinNode join;
    private final JoinTable table;
    private final BitSet residualColumns;
    // Workers only ever set marks, each a separate byte, so races can only cost a redundant pairing;
    // all marks are visible once the pipeline's workers have finished.
    private final boolean[] marked;

    /** {@code residualColumns}: the combined (probe then build) columns the residual reads. */
    public ProbeMarkSink(HashJoinNode join, JoinTable table, BitSet residualColumns) {
        this.join = join;
        this.table = table;
        this.residualColumns = residualColumns;
        this.marked = new boolean[table.rows.rows()];
    }

    /** One worker's lookup and residual with its pair buffers. */
    public final class Local {
        private final KeyLookup lookup = new KeyLookup(table, join.buildKeys());
        private final VecExpr residual = join.residual() == null ? null : ExprCompiler.compile(join.residual());
        private int[] probeRows = new int[Batch.ROWS];
        private int[] buildRows = new int[Batch.ROWS];
        private int pairs;
    }

    @Override
    public Local createLocal() {
        return new Local();
    }

    @Override
    public void accept(Local local, Batch batch) {
        int n = batch.rows();
        int[] found = local.lookup.find(batch, n);
        int[] rowsByKey = table.isDense() ? null : table.rowsByKey();
        for (int r = 0; r < n; r++) {
            int id = found[r];
            if (id < 0) {
                continue;
            }
            if (table.isDense()) {
                pair(local, batch, id, r);
            } else {
                for (int j = table.start(id), end = table.start(id + 1); j < end; j++) {
                    pair(local, batch, rowsByKey[j], r);
                }
            }
        }
        markPassing(local, batch);
    }

    private void pair(Local local, Batch batch, int probeRow, int buildRow) {
        if (marked[probeRow]) {
            return;
        }
        if (local.residual == null) {
            marked[probeRow] = true;
            return;
        }
        if (local.pairs == local.probeRows.length) {
            if (local.pairs >= MAX_PAIRS) {
                markPassing(local, batch);
            } else {
                local.probeRows = Arrays.copyOf(local.probeRows, local.pairs * 2);
                local.buildRows = Arrays.copyOf(local.buildRows, local.pairs * 2);
            }
        }
        local.probeRows[local.pairs] = probeRow;
        local.buildRows[local.pairs] = buildRow;
        local.pairs++;
    }

    /** Evaluates the residual over the buffered pairs and marks the probe rows of those that pass. */
    private void markPassing(Local local, Batch batch) {
        int count = local.pairs;
        if (count == 0) {
            return;
        }
        Batch probe = table.rows;
        int probeWidth = probe.width();
        Vector[] columns = new Vector[probeWidth + batch.width()];
        for (int c = residualColumns.nextSetBit(0); c >= 0; c = residualColumns.nextSetBit(c + 1)) {
            columns[c] = c < probeWidth ? probe.column(c).gather(local.probeRows, count)
                    : batch.column(c - probeWidth).gather(local.buildRows, count);
        }
        Vector pass = local.residual.eval(new Batch(columns, count));
        for (int i = 0; i < count; i++) {
            if (!pass.isNull(i) && pass.longs()[i] != 0) {
                marked[local.probeRows[i]] = true;
            }
        }
        local.pairs = 0;
    }

    @Override
    public void finish(List<Local> locals) {
    }

    /** The probe rows the join keeps: those marked for SEMI, the others for ANTI. */
    public Batch result() {
        boolean keep = join.kind() == JoinKind.SEMI;
        int[] sel = new int[marked.length];
        int count = 0;
        for (int r = 0; r < marked.length; r++) {
            if (marked[r] == keep) {
                sel[count++] = r;
            }
        }
        return table.rows.gather(sel, count);
    }
}

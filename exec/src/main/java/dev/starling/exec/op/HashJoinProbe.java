package dev.starling.exec.op;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.eval.VecExpr;
import dev.starling.exec.pipeline.Operator;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import java.util.Arrays;
import java.util.BitSet;
import java.util.function.Consumer;

/**
 * Probes a {@link JoinTable} with each batch: finds the candidate (probe row, build row) pairs,
 * keeps those passing the residual, and shapes the output by join kind (INNER pairs; LEFT pairs plus
 * unmatched probe rows padded with NULLs; SEMI / ANTI the probe rows with / without a pair). Pairs
 * are handled at most {@link #MAX_PAIRS} at a time, so a batch whose rows match many build rows
 * yields several output batches instead of one without bound.
 */
public final class HashJoinProbe implements Operator {
    private final HashJoinNode join;
    private final JoinTable table;
    private final KeyLookup lookup;
    private final VecExpr residual;
    private final int probeWidth;
    private final BitSet needed;
    private int[] pairProbe = new int[Batch.ROWS];
    private int[] pairBuild = new int[Batch.ROWS];
    private int pairs;
    /** Pairs per output batch of a join whose probe rows match many build rows. */
    private static final int MAX_PAIRS = 4 * Batch.ROWS;

    /** {@code needed}: the combined (probe then build) columns that the residual or the consumer reads; the others are left null. */
    public HashJoinProbe(HashJoinNode join, JoinTable table, BitSet needed) {
        this.join = join;
        this.table = table;
        this.lookup = new KeyLookup(table, join.probeKeys());
        this.residual = join.residual() == null ? null : ExprCompiler.compile(join.residual());
        this.probeWidth = join.probe().output().size();
        this.needed = needed;
    }

    @Override
    public void process(Batch in, Consumer<Batch> out) {
        int n = in.rows();
        boolean existenceOnly = residual == null && (join.kind() == JoinKind.SEMI || join.kind() == JoinKind.ANTI);
        boolean[] matched = join.kind() == JoinKind.INNER ? null : new boolean[n];
        pairs = 0;
        findPairs(in, n, existenceOnly, () -> flush(in, matched, out));
        flush(in, matched, out);
        switch (join.kind()) {
            case LEFT -> {
                for (int p = 0; p < n; p++) {
                    if (!matched[p]) {
                        add(p, -1);
                    }
                }
                Operator.emit(pairs == 0 ? null : combine(in, pairProbe, pairBuild, pairs), out);
                pairs = 0;
            }
            case SEMI, ANTI -> Operator.emit(existence(in, n, matched, join.kind() == JoinKind.SEMI), out);
            default -> { }
        }
    }

    /**
     * Keeps the pairs found so far that pass the residual: an INNER or LEFT join passes them on
     * as output, the others only mark their probe rows matched.
     */
    private void flush(Batch in, boolean[] matched, Consumer<Batch> out) {
        if (pairs == 0) {
            return;
        }
        Batch combined = null;
        if (residual != null) {
            combined = combine(in, pairProbe, pairBuild, pairs);
            Vector pass = residual.eval(combined);
            int kept = 0;
            for (int i = 0; i < pairs; i++) {
                if (!pass.isNull(i) && pass.longs()[i] != 0) {
                    pairProbe[kept] = pairProbe[i];
                    pairBuild[kept] = pairBuild[i];
                    kept++;
                }
            }
            combined = kept == pairs ? combined : null;
            pairs = kept;
        }
        if (matched != null) {
            for (int i = 0; i < pairs; i++) {
                matched[pairProbe[i]] = true;
            }
        }
        if (pairs > 0 && (join.kind() == JoinKind.INNER || join.kind() == JoinKind.LEFT)) {
            out.accept(combined != null ? combined : combine(in, pairProbe, pairBuild, pairs));
        }
        pairs = 0;
    }

    /** Collects the candidate pairs of this batch, flushing whenever they fill an output batch. */
    private void findPairs(Batch in, int n, boolean existenceOnly, Runnable flush) {
        if (table.isCross()) {
            int buildRows = table.rows.rows();
            for (int p = 0; p < n; p++) {
                for (int b = 0; b < buildRows && (!existenceOnly || b == 0); b++) {
                    add(p, b);
                    flushWhenFull(flush);
                }
            }
            return;
        }
        int[] found = lookup.find(in, n);
        if (table.findsRows()) {
            if (pairProbe.length < n) {
                pairProbe = new int[n];
                pairBuild = new int[n];
            }
            for (int p = 0; p < n; p++) {
                pairProbe[pairs] = p;
                pairBuild[pairs] = found[p];
                pairs += found[p] >= 0 ? 1 : 0;
            }
            return;
        }
        int[] rows = table.rowsByKey();
        for (int p = 0; p < n; p++) {
            int id = found[p];
            if (id >= 0) {
                int end = existenceOnly ? table.start(id) + 1 : table.start(id + 1);
                for (int j = table.start(id); j < end; j++) {
                    add(p, rows[j]);
                    flushWhenFull(flush);
                }
            }
        }
    }

    private void flushWhenFull(Runnable flush) {
        if (pairs == MAX_PAIRS) {
            flush.run();
        }
    }

    private void add(int probeRow, int buildRow) {
        if (pairs == pairProbe.length) {
            pairProbe = Arrays.copyOf(pairProbe, pairs * 2);
            pairBuild = Arrays.copyOf(pairBuild, pairs * 2);
        }
        pairProbe[pairs] = probeRow;
        pairBuild[pairs] = buildRow;
        pairs++;
    }

    /** Probe columns then build columns of the given pairs (build row -1: NULLs). */
    private Batch combine(Batch in, int[] probeRows, int[] buildRows, int count) {
        Batch build = table.rows;
        Vector[] out = new Vector[probeWidth + build.width()];
        boolean allProbeRows = count == in.rows() && isIdentity(probeRows, count);
        for (int c = 0; c < probeWidth; c++) {
            if (needed.get(c)) {
                out[c] = allProbeRows ? in.column(c) : in.column(c).gather(probeRows, count);
            }
        }
        for (int c = 0; c < build.width(); c++) {
            if (needed.get(probeWidth + c)) {
                out[probeWidth + c] = build.column(c).gather(buildRows, count);
            }
        }
        return new Batch(out, count);
    }

    private static boolean isIdentity(int[] rows, int n) {
        for (int i = 0; i < n; i++) {
            if (rows[i] != i) {
                return false;
            }
        }
        return true;
    }

    private static Batch existence(Batch in, int n, boolean[] matched, boolean keepMatched) {
        int[] sel = new int[n];
        int count = 0;
        for (int p = 0; p < n; p++) {
            if (matched[p] == keepMatched) {
                sel[count++] = p;
            }
        }
        if (count == n) {
            return in;
        }
        return count == 0 ? null : in.gather(sel, count);
    }
}

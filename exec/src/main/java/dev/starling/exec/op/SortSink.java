package dev.starling.exec.op;

import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.SortNode.SortKey;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import dev.starling.exec.vector.Vector;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Sorts its whole input by the node's keys (strings by value through dictionary ranks; NULLs first
 * or last as each key says, whatever the direction). With a limit (top-N), each worker keeps only its
 * best {@code offset + limit} rows once its buffer grows past a few times that, so memory stays
 * bounded; from then on a row whose first key comes after the last of those is dropped as it
 * arrives, by one comparison, rather than sorted with the others.
 */
public final class SortSink implements Sink<SortSink.Rows> {
    private final SortNode node;
    private final List<Field> fields;
    private final long keep;
    private Batch result;

    public SortSink(SortNode node) {
        this.node = node;
        this.fields = node.input().output();
        this.keep = node.limit() < 0 ? -1 : node.offset() + node.limit();
    }

    /**
     * The bytes {@code node} holds over {@code rows} input rows: the rows (every value a long or a
     * double) and their order; a top-N keeps a few times its rows per worker at most.
     */
    public static long bytesFor(SortNode node, long rows, int workers) {
        long kept = node.limit() < 0 ? rows
                : Math.min(rows, workers * bufferRows(node.offset() + node.limit()));
        return kept * (8L * node.output().size() + 4);
    }

    /** The rows a top-N worker buffers before it cuts them down to the {@code keep} best. */
    private static long bufferRows(long keep) {
        return Math.max(Batch.ROWS * 4L, keep * 4);
    }

    /** One worker's buffered rows, and the last of the best rows it kept, once it cut them. */
    public static final class Rows {
        final List<Batch> batches = new ArrayList<>();
        long rows;
        Batch last;
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public long held(Rows local) {
        return Batch.bytes(local.rows, fields.size());
    }

    @Override
    public long heldWhenFinished() {
        return result.bytes();
    }

    @Override
    public void accept(Rows local, Batch batch) {
        Batch kept = local.last == null ? batch : notAfter(batch, local.last);
        if (kept.rows() == 0) {
            return;
        }
        local.batches.add(kept);
        local.rows += kept.rows();
        if (keep >= 0 && local.rows > bufferRows(keep)) {
            Batch best = sorted(BatchBuffer.concat(fields, local.batches), 0, keep);
            local.batches.clear();
            local.batches.add(best);
            local.rows = best.rows();
            local.last = best.rows() == keep && keep > 0 ? best.gather(new int[] {best.rows() - 1}, 1) : null;
        }
    }

    /**
     * The rows of {@code batch} that may still be among the best: those whose first key is not
     * strictly after {@code last}'s (ties and NULLs stay, the full sort decides them); all of them
     * where that key is a string (its batches' dictionaries may differ) or {@code last}'s is NULL.
     */
    private Batch notAfter(Batch batch, Batch last) {
        SortKey key = node.keys().get(0);
        Vector v = batch.column(key.column());
        Vector bound = last.column(key.column());
        if (v.dict() != null || bound.nulls() != null && bound.nulls()[0]) {
            return batch;
        }
        boolean[] nulls = v.nulls();
        int direction = key.descending() ? -1 : 1;
        IntPredicate after;
        if (v.isDouble()) {
            double[] d = v.doubles();
            double b = bound.doubles()[0];
            after = i -> direction * Double.compare(d[i], b) > 0;
        } else {
            long[] l = v.longs();
            long b = bound.longs()[0];
            after = i -> direction * Long.compare(l[i], b) > 0;
        }
        int n = batch.rows();
        int[] sel = new int[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i] || !after.test(i)) {
                sel[m++] = i;
            }
        }
        return m == n ? batch : batch.gather(sel, m);
    }

    @Override
    public void finish(List<Rows> locals) {
        List<Batch> all = new ArrayList<>();
        locals.forEach(l -> all.addAll(l.batches));
        result = sorted(BatchBuffer.concat(fields, all), node.offset(), node.limit());
    }

    public Batch result() {
        return result;
    }

    /** Rows {@code [offset, offset + limit)} of {@code data} in key order ({@code limit < 0}: all). */
    private Batch sorted(Batch data, long offset, long limit) {
        int n = data.rows();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        IndexSort.sort(order, comparator(data));
        int from = (int) Math.min(offset, n);
        int to = limit < 0 ? n : (int) Math.min(n, from + limit);
        int[] sel = java.util.Arrays.copyOfRange(order, from, to);
        return data.gather(sel, sel.length);
    }

    private IndexSort.Comparator comparator(Batch data) {
        List<SortKey> keys = node.keys();
        IndexSort.Comparator[] parts = new IndexSort.Comparator[keys.size()];
        for (int k = 0; k < parts.length; k++) {
            SortKey key = keys.get(k);
            Vector v = data.column(key.column());
            boolean[] nulls = v.nulls();
            int direction = key.descending() ? -1 : 1;
            int nullOrder = key.nullsFirst() ? -1 : 1;
            IndexSort.Comparator values;
            if (v.isDouble()) {
                double[] d = v.doubles();
                values = (a, b) -> Double.compare(d[a], d[b]);
            } else if (v.dict() != null) {
                int[] ranks = v.dict().ranks();
                long[] codes = v.longs();
                values = (a, b) -> Integer.compare(ranks[(int) codes[a]], ranks[(int) codes[b]]);
            } else {
                long[] l = v.longs();
                values = (a, b) -> Long.compare(l[a], l[b]);
            }
            parts[k] = nulls == null ? (a, b) -> direction * values.compare(a, b) : (a, b) -> {
                if (nulls[a] || nulls[b]) {
                    return nulls[a] == nulls[b] ? 0 : nulls[a] ? nullOrder : -nullOrder;
                }
                return direction * values.compare(a, b);
            };
        }
        return (a, b) -> {
            for (IndexSort.Comparator p : parts) {
                int c = p.compare(a, b);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }
}

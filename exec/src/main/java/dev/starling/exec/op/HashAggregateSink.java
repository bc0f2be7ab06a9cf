package dev.starling.exec.op;

import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.StringInterner;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.List;

/**
 * Hash aggregation. Each worker groups its batches into its own key table and accumulators; at the
 * end the partial groups are merged into one table. Group keys are key-encoded (strings through one
 * interner shared by the workers) plus a NULL mask, so NULL keys form a group of their own. DISTINCT
 * calls keep per-worker sets of (group, value) and are accumulated only when the sets are merged,
 * so a value seen by two workers counts once.
 */
public final class HashAggregateSink implements Sink<HashAggregateSink.Groups> {
    private final AggregateNode node;
    private final List<Field> inputFields;
    private final StringInterner interner = new StringInterner();
    private final KeyEncoder keyEncoder;
    private final KeyEncoder valueEncoder;
    private Batch result;

    public HashAggregateSink(AggregateNode node) {
        this.node = node;
        this.inputFields = node.input().output();
        int[] keys = node.groupKeys();
        KeyEncoder.Domain[] domains = new KeyEncoder.Domain[keys.length];
        for (int k = 0; k < keys.length; k++) {
            domains[k] = KeyEncoder.Domain.of(inputFields.get(keys[k]).type());
        }
        keyEncoder = new KeyEncoder(domains, interner, true);
        List<AggCall> calls = node.calls();
        KeyEncoder.Domain[] valueDomains = new KeyEncoder.Domain[calls.size()];
        for (int c = 0; c < calls.size(); c++) {
            int arg = calls.get(c).argument();
            valueDomains[c] = KeyEncoder.Domain.of(arg < 0 ? DataType.BIGINT : inputFields.get(arg).type());
        }
        valueEncoder = new KeyEncoder(valueDomains, interner, true);
    }

    /**
     * The bytes {@code node}'s merged groups take when there are {@code groups}: the key table (the
     * keys and a NULL mask) and per call a count and a value. Each worker's own groups come on top
     * while they are merged.
     */
    public static long bytesFor(AggregateNode node, long groups) {
        return KeyTable.bytesFor(groups, node.groupKeys().length + 1)
                + Accumulator.bytesFor(groups) * node.calls().size();
    }

    /** One worker's groups (also the merged result). */
    public final class Groups {
        final KeyTable table = new KeyTable(node.groupKeys().length + 1, 1024);
        final Accumulator[] accumulators = new Accumulator[node.calls().size()];
        final KeyTable[] distinct = new KeyTable[node.calls().size()];

        Groups() {
            for (int c = 0; c < accumulators.length; c++) {
                AggCall call = node.calls().get(c);
                accumulators[c] = new Accumulator(call, GroupStates.argumentType(node, call));
                if (isDistinct(call)) {
                    distinct[c] = new KeyTable(2, 1024);
                }
            }
        }
    }

    private static boolean isDistinct(AggCall call) {
        return call.distinct() && call.function() != AggregateNode.Function.MIN
                && call.function() != AggregateNode.Function.MAX && call.argument() >= 0;
    }

    @Override
    public Groups createLocal() {
        return new Groups();
    }

    /** The worker's groups, as {@link #bytesFor} counts them, and its DISTINCT calls' sets of (group, value). */
    @Override
    public long held(Groups g) {
        long bytes = bytesFor(node, g.table.size());
        for (KeyTable set : g.distinct) {
            bytes += set == null ? 0 : KeyTable.bytesFor(set.size(), 2);
        }
        return bytes;
    }

    @Override
    public long heldWhenFinished() {
        return bytesFor(node, result.rows());
    }

    /**
     * A worker's groups holding {@code states}, another backend's share of the rows, so that
     * {@link #finish} merges them with the CPU workers' groups (the aggregation has no DISTINCT call).
     */
    public Groups local(GroupStates states) {
        Groups g = new Groups();
        int n = states.groups();
        Vector[] columns = new Vector[inputFields.size()];
        int[] keys = node.groupKeys();
        for (int k = 0; k < keys.length; k++) {
            columns[keys[k]] = states.keys()[k];
        }
        int[] gids = groupIds(g, new Batch(columns, n), n);
        for (int c = 0; c < g.accumulators.length; c++) {
            AggCall call = node.calls().get(c);
            GroupStates.CallStates s = states.calls().get(c);
            Accumulator share = new Accumulator(call, GroupStates.argumentType(node, call));
            share.load(s.counts(), s.longs() == null ? new long[n] : s.longs(), s.doubles() == null ? new double[n] : s.doubles());
            for (int i = 0; i < n; i++) {
                g.accumulators[c].merge(gids[i], share, i);
            }
        }
        return g;
    }

    @Override
    public void accept(Groups g, Batch batch) {
        int n = batch.rows();
        int[] gids = groupIds(g, batch, n);
        for (int c = 0; c < g.accumulators.length; c++) {
            AggCall call = node.calls().get(c);
            boolean[] skip = skipped(call, batch, n);
            Vector arg = call.argument() < 0 ? null : batch.column(call.argument());
            if (g.distinct[c] != null) {
                remember(g.distinct[c], gids, valueEncoder.encode(c, arg, n), arg.nulls(), skip, n);
            } else {
                g.accumulators[c].update(gids, arg, skip, n);
            }
        }
    }

    private int[] groupIds(Groups g, Batch batch, int n) {
        int[] keys = node.groupKeys();
        long[][] cols = new long[keys.length + 1][];
        long[] nullMask = new long[n];
        for (int k = 0; k < keys.length; k++) {
            Vector v = batch.column(keys[k]);
            cols[k] = keyEncoder.encode(k, v, n);
            if (v.nulls() != null) {
                for (int i = 0; i < n; i++) {
                    if (v.nulls()[i]) {
                        nullMask[i] |= 1L << k;
                        cols[k][i] = 0;
                    }
                }
            }
        }
        cols[keys.length] = nullMask;
        int[] hashes = KeyEncoder.hashes(cols, n);
        int[] gids = new int[n];
        for (int i = 0; i < n; i++) {
            // Rows often come clustered by key (a fact table in key order): a run shares one lookup.
            gids[i] = i > 0 && hashes[i] == hashes[i - 1] && KeyTable.sameKey(cols, i, i - 1)
                    ? gids[i - 1] : g.table.findOrInsert(cols, i, hashes[i]);
        }
        for (Accumulator a : g.accumulators) {
            a.ensure(g.table.size());
        }
        return gids;
    }

    /** Rows a call must not see: those its FILTER column does not mark TRUE. */
    private static boolean[] skipped(AggCall call, Batch batch, int n) {
        if (call.filter() < 0) {
            return null;
        }
        Vector f = batch.column(call.filter());
        boolean[] skip = new boolean[n];
        for (int i = 0; i < n; i++) {
            skip[i] = f.isNull(i) || f.longs()[i] == 0;
        }
        return skip;
    }

    private static void remember(KeyTable set, int[] gids, long[] values, boolean[] nulls, boolean[] skip, int n) {
        long[][] cols = {new long[n], values};
        for (int i = 0; i < n; i++) {
            cols[0][i] = gids[i];
        }
        int[] hashes = KeyEncoder.hashes(cols, n);
        for (int i = 0; i < n; i++) {
            if ((skip == null || !skip[i]) && (nulls == null || !nulls[i])) {
                set.findOrInsert(cols, i, hashes[i]);
            }
        }
    }

    @Override
    public void finish(List<Groups> locals) {
        // Without DISTINCT calls a worker's groups are complete partial results: the first worker's
        // become the total, and only the others are merged into it.
        boolean takeFirst = !locals.isEmpty() && node.calls().stream().noneMatch(HashAggregateSink::isDistinct);
        Groups total = takeFirst ? locals.get(0) : new Groups();
        int width = node.groupKeys().length + 1;
        StrDict interned = interner.dictionary();
        for (Groups local : takeFirst ? locals.subList(1, locals.size()) : locals) {
            int groups = local.table.size();
            long[][] cols = new long[width][groups];
            for (int id = 0; id < groups; id++) {
                for (int k = 0; k < width; k++) {
                    cols[k][id] = local.table.key(id, k);
                }
            }
            int[] hashes = KeyEncoder.hashes(cols, groups);
            int[] map = new int[groups];
            for (int id = 0; id < groups; id++) {
                map[id] = total.table.findOrInsert(cols, id, hashes[id]);
            }
            for (Accumulator a : total.accumulators) {
                a.ensure(total.table.size());
            }
            for (int c = 0; c < total.accumulators.length; c++) {
                if (local.distinct[c] != null) {
                    mergeDistinct(total, c, local.distinct[c], map, interned);
                } else {
                    for (int id = 0; id < groups; id++) {
                        total.accumulators[c].merge(map[id], local.accumulators[c], id);
                    }
                }
            }
        }
        if (node.groupKeys().length == 0 && total.table.size() == 0) {
            total.table.findOrInsert(new long[][] {{0}}, 0, KeyEncoder.hashes(new long[][] {{0}}, 1)[0]);
            for (Accumulator a : total.accumulators) {
                a.ensure(1);
            }
        }
        result = output(total, interner.dictionary());
    }

    private static void mergeDistinct(Groups total, int c, KeyTable local, int[] map, StrDict interned) {
        int n = local.size();
        long[][] cols = {new long[n], new long[n]};
        for (int i = 0; i < n; i++) {
            cols[0][i] = map[(int) local.key(i, 0)];
            cols[1][i] = local.key(i, 1);
        }
        int[] hashes = KeyEncoder.hashes(cols, n);
        for (int i = 0; i < n; i++) {
            int before = total.distinct[c].size();
            total.distinct[c].findOrInsert(cols, i, hashes[i]);
            if (total.distinct[c].size() > before) {
                total.accumulators[c].addEncoded((int) cols[0][i], cols[1][i], interned);
            }
        }
    }

    private Batch output(Groups total, StrDict interned) {
        int groups = total.table.size();
        int[] keys = node.groupKeys();
        Vector[] out = new Vector[keys.length + node.calls().size()];
        for (int k = 0; k < keys.length; k++) {
            DataType t = inputFields.get(keys[k]).type();
            boolean[] nulls = null;
            long[] longs = new long[groups];
            for (int g = 0; g < groups; g++) {
                longs[g] = total.table.key(g, k);
                if ((total.table.key(g, keys.length) & (1L << k)) != 0) {
                    nulls = nulls == null ? new boolean[groups] : nulls;
                    nulls[g] = true;
                }
            }
            if (t.kind() == DataType.Kind.DOUBLE) {
                double[] d = new double[groups];
                for (int g = 0; g < groups; g++) {
                    d[g] = Double.longBitsToDouble(longs[g]);
                }
                out[k] = Vector.ofDoubles(d, nulls);
            } else {
                out[k] = new Vector(t, longs, null, nulls, t.kind() == DataType.Kind.VARCHAR ? interned : null);
            }
        }
        for (int c = 0; c < node.calls().size(); c++) {
            out[keys.length + c] = total.accumulators[c].result(groups);
        }
        return new Batch(out, groups);
    }

    public Batch result() {
        return result;
    }
}

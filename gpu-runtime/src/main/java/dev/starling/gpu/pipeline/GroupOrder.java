package dev.starling.gpu.pipeline;

import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.plan.AggregateNode;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Only the first {@code count} groups in the order of one aggregate, which a sort with a limit over
 * the aggregation keeps: the groups read back are cut to those that {@code count} others do not
 * strictly precede (ties with the last one kept stay) before their keys are decoded, which is most
 * of a read-back's time when a million groups come back for a top 10 (TPC-H Q3, Q10). The sort
 * and limit above still run on the CPU over those. The aggregate's state must order the groups by
 * one 64-bit word and never be NULL: a COUNT, or a SUM, MIN or MAX of integers (or decimals) that
 * counts every row of its group; its state is slot {@code slot}'s low word.
 */
public record GroupOrder(int slot, boolean descending, long count, String label) {
    /** The most groups a cut keeps: each slice of the read-back holds that many keys in a heap. */
    static final long MOST_KEPT = 1 << 16;

    /**
     * The order {@code first} gives {@code pipeline}'s groups, when the aggregate it sorts by has
     * such a state (sorting by a group key, an AVG, a double or a value that may be NULL: empty).
     */
    public static Optional<GroupOrder> of(StarPipeline pipeline, GroupsWanted.First first) {
        if (first == null || !(pipeline.node() instanceof AggregateNode a)) {
            return Optional.empty();
        }
        int call = first.column() - a.groupKeys().length;
        if (call < 0) {
            return Optional.empty();
        }
        StarPipeline.CallStates states = pipeline.calls().get(call);
        String label = a.output().get(first.column()).name();
        return switch (a.calls().get(call).function()) {
            case COUNT_STAR, COUNT -> Optional.of(new GroupOrder(states.countSlot(), first.descending(), first.count(), label));
            case SUM, MIN, MAX -> {
                AggKind kind = pipeline.slots().get(states.valueSlot()).kind();
                boolean integral = kind == AggKind.SUM_I || kind == AggKind.MIN_I || kind == AggKind.MAX_I;
                // slot 0 counts every row: a call whose count is it is never NULL
                yield integral && states.countSlot() == 0
                        ? Optional.of(new GroupOrder(states.valueSlot(), first.descending(), first.count(), label))
                        : Optional.empty();
            }
            case AVG -> Optional.empty();
        };
    }

    /** For EXPLAIN. */
    public String describe() {
        return "of its groups, only the first " + count + " by " + label + (descending ? " DESC" : "")
                + " (and ties) decoded";
    }

    /**
     * The least key a group must have to be kept, of groups whose states' words are {@code words}
     * (from the order's slot), as {@link #key} gives it; {@link Long#MIN_VALUE} keeps every one.
     * Each slice keeps its {@code count} greatest keys in a heap; the {@code count}-th greatest of
     * theirs is the answer. Cutting pays only where few of many groups are kept: past
     * {@link #MOST_KEPT}, or a quarter of the groups, every one is.
     */
    long threshold(long[] words) {
        int n = words.length;
        if (count > MOST_KEPT || count > n / 4) {
            return Long.MIN_VALUE;
        }
        int k = (int) count;
        ConcurrentLinkedQueue<long[]> tops = new ConcurrentLinkedQueue<>();
        Slices.forEach(n, (from, to) -> {
            long[] heap = new long[k];
            int size = 0;
            for (int i = from; i < to; i++) {
                long v = key(words[i]);
                if (size < k) {
                    heap[size++] = v;
                    siftUp(heap, size - 1);
                } else if (v > heap[0]) {
                    heap[0] = v;
                    siftDown(heap, k);
                }
            }
            tops.add(Arrays.copyOf(heap, size));
        });
        long[] all = tops.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        return all[all.length - k];
    }

    /** A state word as a key that is greater the earlier its group comes: its value descending, else its complement. */
    long key(long word) {
        return descending ? word : ~word;
    }

    /** A min-heap of longs: moves entry {@code i} up to its place. */
    private static void siftUp(long[] heap, int i) {
        while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
            swap(heap, i, (i - 1) / 2);
            i = (i - 1) / 2;
        }
    }

    /** A min-heap of {@code size} longs: moves its root down to its place. */
    private static void siftDown(long[] heap, int size) {
        int i = 0;
        while (true) {
            int least = i;
            for (int child = 2 * i + 1; child <= 2 * i + 2 && child < size; child++) {
                if (heap[child] < heap[least]) {
                    least = child;
                }
            }
            if (least == i) {
                return;
            }
            swap(heap, i, least);
            i = least;
        }
    }

    private static void swap(long[] heap, int a, int b) {
        long t = heap[a];
        heap[a] = heap[b];
        heap[b] = t;
    }
}

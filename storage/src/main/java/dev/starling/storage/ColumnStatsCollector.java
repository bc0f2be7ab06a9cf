package dev.starling.storage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * Computes {@link ColumnStats}: exact value counts while the number of distinct values stays under
 * {@link ColumnStats#EXACT_DISTINCT_LIMIT}; beyond that the distinct count is estimated with
 * linear counting over a hashed bitmap and the most frequent values are those seen before the switch.
 */
public final class ColumnStatsCollector {
    private static final int SKETCH_BITS = 1 << 24;

    private ColumnStatsCollector() { }

    public static ColumnStats collect(Column column) {
        boolean isDouble = column.physical() == DataType.Physical.FLOAT64;
        LongIntMap slots = new LongIntMap(1024);
        List<long[]> counts = new ArrayList<>(); // [value, count]
        long[] sketch = null;
        for (ColumnChunk chunk : column.chunks()) {
            for (int r = 0; r < chunk.rows(); r++) {
                if (chunk.isNull(r)) {
                    continue;
                }
                long v = isDouble ? Double.doubleToLongBits(chunk.getDouble(r)) : chunk.getAsLong(r);
                if (sketch == null) {
                    int slot = slots.get(v);
                    if (slot >= 0) {
                        counts.get(slot)[1]++;
                        continue;
                    }
                    if (counts.size() < ColumnStats.EXACT_DISTINCT_LIMIT) {
                        slots.put(v, counts.size());
                        counts.add(new long[] {v, 1});
                        continue;
                    }
                    sketch = new long[SKETCH_BITS / 64];
                    for (long[] c : counts) {
                        mark(sketch, c[0]);
                    }
                }
                mark(sketch, v);
            }
        }
        long distinct = sketch == null ? counts.size() : linearCount(sketch);
        Extent e = Extent.of(column.chunks());
        return new ColumnStats(e.rows, e.nulls, distinct, sketch == null, e.min, e.max, e.minDouble, e.maxDouble,
                top(counts), e.rows);
    }

    /** Rows, NULLs, and the least and greatest values of chunks, as their zone maps tell them. */
    private record Extent(long rows, long nulls, long min, long max, double minDouble, double maxDouble) {
        static Extent of(List<ColumnChunk> chunks) {
            long rows = 0;
            long nulls = 0;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            double minD = Double.POSITIVE_INFINITY;
            double maxD = Double.NEGATIVE_INFINITY;
            for (ColumnChunk chunk : chunks) {
                ZoneMap z = chunk.zoneMap();
                rows += chunk.rows();
                nulls += z.nulls();
                if (z.nonNull() > 0) {
                    min = Math.min(min, z.min());
                    max = Math.max(max, z.max());
                    minD = Math.min(minD, z.minDouble());
                    maxD = Math.max(maxD, z.maxDouble());
                }
            }
            return new Extent(rows, nulls, min, max, minD, maxD);
        }
    }

    /**
     * The statistics of {@code column}, a version with rows appended to one whose statistics are
     * {@code measured}, its chunks from {@code firstNew} on holding the appended rows (the first
     * of them maybe some of the earlier version's too): rows, nulls, minimum and maximum from every
     * chunk's zone map, the distinct values bounded by {@code measured}'s and the new chunks', the
     * most frequent values {@code measured}'s. Empty where the rows appended since the values were
     * counted come to more than a tenth of those counted: then all are counted again
     * ({@link #collect}), which an append pays for only once every so many rows.
     */
    public static Optional<ColumnStats> appended(ColumnStats measured, Column column, int firstNew) {
        Extent e = Extent.of(column.chunks());
        if (measured.measuredRows() == 0 || (e.rows - measured.measuredRows()) > measured.measuredRows() / 10) {
            return Optional.empty();
        }
        List<ColumnChunk> added = column.chunks().subList(firstNew, column.chunks().size());
        long addedDistinct = collect(new Column(column.schema(), added, column.dictionary(), column.denseReference(),
                ColumnStats.empty())).distinct();
        long distinct = Math.min(measured.distinct() + addedDistinct, e.rows - e.nulls);
        return Optional.of(new ColumnStats(e.rows, e.nulls, distinct, false, e.min, e.max, e.minDouble, e.maxDouble,
                measured.mostFrequent(), measured.measuredRows()));
    }

    private static void mark(long[] sketch, long v) {
        long h = (v ^ (v >>> 29)) * 0xBF58476D1CE4E5B9L;
        int bit = (int) ((h ^ (h >>> 32)) & (SKETCH_BITS - 1));
        sketch[bit >>> 6] |= 1L << bit;
    }

    private static long linearCount(long[] sketch) {
        long set = 0;
        for (long w : sketch) {
            set += Long.bitCount(w);
        }
        long zero = Math.max(1, SKETCH_BITS - set);
        return Math.round(SKETCH_BITS * Math.log((double) SKETCH_BITS / zero));
    }

    private static List<ColumnStats.ValueCount> top(List<long[]> counts) {
        PriorityQueue<long[]> heap = new PriorityQueue<>(Comparator.comparingLong(c -> c[1]));
        for (long[] c : counts) {
            if (heap.size() == ColumnStats.MOST_FREQUENT && c[1] <= heap.peek()[1]) {
                continue; // skips the heap for the many values that cannot displace its least frequent one
            }
            heap.add(c);
            if (heap.size() > ColumnStats.MOST_FREQUENT) {
                heap.poll();
            }
        }
        List<ColumnStats.ValueCount> out = new ArrayList<>();
        while (!heap.isEmpty()) {
            long[] c = heap.poll();
            out.add(0, new ColumnStats.ValueCount(c[0], c[1]));
        }
        return out;
    }
}

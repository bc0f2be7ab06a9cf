package dev.starling.exec.op;

import dev.starling.storage.ColumnChunk;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One worker's bulk reader of off-heap chunk values: a range is copied with one
 * {@link MemorySegment#copy} into a reused staging array and widened or gathered from there, which
 * avoids a bounds and liveness check per element. A selection that keeps few rows of its span is
 * read element by element instead, as copying the whole span would cost more.
 */
final class ChunkCopier {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    /** Below one selected row in this many, elements are read one by one. */
    private static final int SPARSE = 16;

    private int[] ints = new int[0];
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private byte[] bytes = new byte[0];

    /** Rows {@code offset + sel[i]} ({@code offset + i} without {@code sel}) of a non-FLOAT64 chunk, widened to long. */
    long[] longs(ColumnChunk chunk, int offset, int[] sel, int n) {
        int span = span(sel, n);
        long[] out = new long[n];
        if (n * SPARSE < span) {
            for (int i = 0; i < n; i++) {
                out[i] = chunk.getAsLong(offset + sel[i]);
            }
            return out;
        }
        MemorySegment seg = chunk.values();
        switch (chunk.physical()) {
            case INT64 -> {
                if (sel == null) {
                    MemorySegment.copy(seg, LONG, (long) offset * 8, out, 0, n);
                    return out;
                }
                long[] s = stageLongs(span);
                MemorySegment.copy(seg, LONG, (long) offset * 8, s, 0, span);
                for (int i = 0; i < n; i++) {
                    out[i] = s[sel[i]];
                }
            }
            case INT32 -> {
                int[] s = stageInts(span);
                MemorySegment.copy(seg, INT, (long) offset * 4, s, 0, span);
                if (sel == null) {
                    for (int i = 0; i < n; i++) {
                        out[i] = s[i];
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = s[sel[i]];
                    }
                }
            }
            case INT8 -> {
                byte[] s = stageBytes(span);
                MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, offset, s, 0, span);
                for (int i = 0; i < n; i++) {
                    out[i] = s[sel == null ? i : sel[i]];
                }
            }
            default -> throw new IllegalStateException("unexpected physical type " + chunk.physical());
        }
        return out;
    }

    double[] doubles(ColumnChunk chunk, int offset, int[] sel, int n) {
        double[] out = new double[n];
        if (sel == null) {
            MemorySegment.copy(chunk.values(), DOUBLE, (long) offset * 8, out, 0, n);
            return out;
        }
        int span = span(sel, n);
        if (n * SPARSE < span) {
            for (int i = 0; i < n; i++) {
                out[i] = chunk.getDouble(offset + sel[i]);
            }
            return out;
        }
        double[] s = doubles.length >= span ? doubles : (doubles = new double[span]);
        MemorySegment.copy(chunk.values(), DOUBLE, (long) offset * 8, s, 0, span);
        for (int i = 0; i < n; i++) {
            out[i] = s[sel[i]];
        }
        return out;
    }

    /** The NULL flags of those rows, or null when none of them is NULL. */
    boolean[] nulls(ColumnChunk chunk, int offset, int[] sel, int n) {
        MemorySegment ns = chunk.nulls();
        if (ns == null) {
            return null;
        }
        int span = span(sel, n);
        boolean[] out = new boolean[n];
        boolean any = false;
        if (n * SPARSE < span) {
            for (int i = 0; i < n; i++) {
                out[i] = chunk.isNull(offset + sel[i]);
                any |= out[i];
            }
            return any ? out : null;
        }
        byte[] s = stageBytes(span);
        MemorySegment.copy(ns, ValueLayout.JAVA_BYTE, offset, s, 0, span);
        for (int i = 0; i < n; i++) {
            out[i] = s[sel == null ? i : sel[i]] != 0;
            any |= out[i];
        }
        return any ? out : null;
    }

    /** How many rows from the offset the selection reaches (positions ascend). */
    private static int span(int[] sel, int n) {
        return sel == null ? n : n == 0 ? 0 : sel[n - 1] + 1;
    }

    private int[] stageInts(int n) {
        return ints.length >= n ? ints : (ints = new int[Math.max(n, 4096)]);
    }

    private long[] stageLongs(int n) {
        return longs.length >= n ? longs : (longs = new long[Math.max(n, 4096)]);
    }

    private byte[] stageBytes(int n) {
        return bytes.length >= n ? bytes : (bytes = new byte[Math.max(n, 4096)]);
    }
}

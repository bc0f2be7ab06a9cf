package dev.starling.gpu.pipeline;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/**
 * Sorts rows the kernel wrote on the device by the keys of a {@link RowSort} ({@code row_sort.cu}):
 * a stable least-significant-digit radix sort of the row indexes, a 64-bit word of a key at a time,
 * from the last key to the first and, within a key, its value before whether it is NULL (the more
 * significant). Each word is sorted by its 4-bit digits in turn, skipping those that every row's
 * word shares (found from the words' AND and OR), so that a key of small values (prices, dates,
 * ranks of a few strings) takes a few passes, not sixteen. Every buffer comes from {@code scratch}.
 */
final class DeviceRowSort {
    private static final String SOURCE = "row_sort";
    /** As {@code row_sort.cu}'s SORT_THREADS, SORT_TILE, DIGIT_BITS and SCAN_THREADS. */
    private static final int THREADS = 256;
    private static final long TILE = THREADS * 16L;
    private static final int DIGIT_BITS = 4;
    private static final int DIGITS = 1 << DIGIT_BITS;
    private static final int SCAN_THREADS = 1024;
    /** {@code row_sort.cu}'s WORD_NULLS, after the {@link RowSort.Word}s. */
    private static final int NULLS_WORD = 3;

    /** A key's column as the kernel wrote it ({@code values}, {@code nulls}), and for a string the ranks of its codes. */
    record Column(RowSort.Key key, DeviceBuffer values, DeviceBuffer nulls, int[] ranks) { }

    private final GpuDevice device;
    private final DeviceArrays scratch;
    private final long n;
    private final long tiles;
    private final DeviceBuffer[] order = new DeviceBuffer[2];
    private final DeviceBuffer[] words = new DeviceBuffer[2];
    private final DeviceBuffer counts;
    private final DeviceBuffer bits;
    /** Which of the two halves holds the current order. */
    private int current;

    private DeviceRowSort(GpuDevice device, DeviceArrays scratch, long n) {
        this.device = device;
        this.scratch = scratch;
        this.n = n;
        this.tiles = Math.max(1, (n + TILE - 1) / TILE);
        for (int h = 0; h < 2; h++) {
            order[h] = scratch.allocate(Math.max(8, n * 8), "sorted row order");
            words[h] = scratch.allocate(Math.max(8, n * 8), "sort key words");
        }
        counts = scratch.allocate(DIGITS * tiles * 8, "sort digit counts");
        bits = scratch.allocate(16, "sort key word bits");
    }

    /** The indexes of the {@code n} rows in the order of {@code columns} (the sort's keys, first key first). */
    static DeviceBuffer sort(GpuDevice device, DeviceArrays scratch, List<Column> columns, long n) {
        DeviceRowSort sort = new DeviceRowSort(device, scratch, n);
        GridLaunch.run(device, SOURCE, "identity_order", n, Pointer.to(new long[] {n}),
                Pointer.to(sort.order[0].pointer()));
        for (int k = n > 1 ? columns.size() - 1 : -1; k >= 0; k--) {
            Column c = columns.get(k);
            DeviceBuffer ranks = c.ranks() == null ? null : scratch.upload(c.ranks(), "string ranks of a sort key");
            sort.byWord(c, c.key().word().ordinal(), ranks);
            if (c.key().nullable()) {
                sort.byWord(c, NULLS_WORD, null);
            }
            if (ranks != null) {
                scratch.free(ranks);
            }
        }
        return sort.order[sort.current];
    }

    /** Sorts the current order stably by one word of {@code column}'s key ({@code kind}: a {@code WORD_*}). */
    private void byWord(Column column, int kind, DeviceBuffer ranks) {
        bits.upload(Pointer.to(new long[] {-1L, 0L}), 0, 16);
        RowSort.Key key = column.key();
        GridLaunch.run(device, SOURCE, "sort_words", n, Pointer.to(column.values().pointer()),
                Pointer.to(key.nullable() ? column.nulls().pointer() : new CUdeviceptr()),
                Pointer.to(order[current].pointer()), Pointer.to(new long[] {n}), Pointer.to(new int[] {kind}),
                Pointer.to(new int[] {key.descending() ? 1 : 0}), Pointer.to(new int[] {key.nullsFirst() ? 1 : 0}),
                Pointer.to(ranks == null ? new CUdeviceptr() : ranks.pointer()), Pointer.to(words[current].pointer()),
                Pointer.to(bits.pointer()));
        long[] andOr = new long[2];
        bits.download(Pointer.to(andOr), 16);
        long varying = andOr[0] ^ andOr[1];
        for (int shift = 0; shift < 64; shift += DIGIT_BITS) {
            if ((varying >>> shift & (DIGITS - 1)) != 0) {
                byDigit(shift);
            }
        }
    }

    /** One stable pass by the digit at {@code shift} of the current words, into the other half. */
    private void byDigit(int shift) {
        int next = 1 - current;
        launch("digit_counts", (int) tiles, THREADS, Pointer.to(words[current].pointer()), Pointer.to(new long[] {n}),
                Pointer.to(new int[] {shift}), Pointer.to(counts.pointer()));
        launch("scan_counts", 1, SCAN_THREADS, Pointer.to(counts.pointer()), Pointer.to(new long[] {DIGITS * tiles}));
        launch("scatter_digits", (int) tiles, THREADS, Pointer.to(words[current].pointer()),
                Pointer.to(order[current].pointer()), Pointer.to(new long[] {n}), Pointer.to(new int[] {shift}),
                Pointer.to(counts.pointer()), Pointer.to(words[next].pointer()), Pointer.to(order[next].pointer()));
        current = next;
    }

    private void launch(String name, int blocks, int threads, Pointer... arguments) {
        Cuda.check(JCudaDriver.cuLaunchKernel(device.kernel(SOURCE, name), blocks, 1, 1, threads, 1, 1, 0, null,
                Pointer.to(arguments), null), "launch of " + name);
        device.synchronize(name);
    }
}

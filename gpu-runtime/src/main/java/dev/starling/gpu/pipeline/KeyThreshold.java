package dev.starling.gpu.pipeline;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.Arrays;
import jcuda.Pointer;

/**
 * The least order key the first {@code count} of many items (groups, {@link GroupOrder}, or rows,
 * {@link RowOrder}) reach, found on the device by a radix select over their keys' bytes, without
 * sorting them. Keys are 64-bit words greater the earlier their item comes.
 */
final class KeyThreshold {
    /** The bins of a {@link ByteCounts} answer: one per byte value, then the items that must all come back (a SUM past 64 bits). */
    static final int BINS = 257;
    /** The module of the {@code key_bytes} kernel. */
    private static final String SOURCE = "star_pipeline";

    private KeyThreshold() { }

    /**
     * How many items have each value of one byte of their order key, among those whose key has
     * given bits: the device's {@code key_bytes} over the keys gathered. The keys counted have
     * their sign bit flipped, which orders them as unsigned numbers as they order as signed ones.
     */
    @FunctionalInterface
    interface ByteCounts {
        /**
         * {@link #BINS} counts: of the items whose key has the bits of {@code prefix} where
         * {@code mask} has them, those with each value of the byte at {@code shift}; last, the
         * items (of any key) that force every item back.
         */
        long[] count(long prefix, long mask, int shift);
    }

    /** Whether keeping the first {@code count} of {@code items} pays: they are fewer than a quarter of them. */
    static boolean pays(long count, long items) {
        return count <= items / 4;
    }

    /**
     * The least key an item must have to be kept: that of the {@code count}-th item, found a byte
     * at a time from the most significant, each round counting by their next byte the keys that
     * share the bytes found so far, and stopping early where every key of the byte found is kept.
     * {@link Long#MIN_VALUE} keeps every item: cutting pays only where few of many items are kept
     * (not a quarter of them or more), and an integer SUM past 64 bits must come back for the
     * read-back to report it, as the CPU does for every group before its sort.
     */
    static long of(long count, ByteCounts counts) {
        long prefix = 0;
        long mask = 0;
        long need = count;
        for (int shift = 56; shift >= 0; shift -= 8) {
            long[] bins = counts.count(prefix, mask, shift);
            if (shift == 56 && (bins[BINS - 1] > 0 || !pays(count, Arrays.stream(bins, 0, BINS - 1).sum()))) {
                return Long.MIN_VALUE;
            }
            int b = BINS - 2;
            while (bins[b] < need) {
                need -= bins[b--];
            }
            prefix |= (long) b << shift;
            mask |= 0xffL << shift;
            if (bins[b] == need) {
                break;
            }
        }
        return prefix ^ Long.MIN_VALUE;
    }

    /**
     * {@link #of} over the {@code n} keys in device buffer {@code keys} (sign bits flipped), their
     * bytes counted by the device's {@code key_bytes} into a buffer of {@code scratch}, round by
     * round; {@code overflowed}: the items that force every one back.
     */
    static long onDevice(GpuDevice device, DeviceArrays scratch, DeviceBuffer keys, long n, long count, long overflowed) {
        DeviceBuffer bins = scratch.allocate(256 * 8L, "order key byte counts");
        return of(count, (prefix, mask, shift) -> {
            bins.clear();
            GridLaunch.run(device, SOURCE, "key_bytes", n, Pointer.to(keys.pointer()), Pointer.to(new long[] {n}),
                    Pointer.to(new long[] {prefix}), Pointer.to(new long[] {mask}), Pointer.to(new int[] {shift}),
                    Pointer.to(bins.pointer()));
            long[] byByte = new long[BINS];
            bins.download(Pointer.to(byByte), 256 * 8L);
            byByte[BINS - 1] = overflowed;
            return byByte;
        });
    }
}

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
    /** The module of the {@code key_bytes} kernel. */
    private static final String SOURCE = "star_pipeline";
    /** The words of a {@code key_bytes} answer: a count per byte value, then the least and greatest key counted. */
    private static final int WORDS = 256 + 2;

    private KeyThreshold() { }

    /**
     * One round's counts: of the items whose key has given bits, how many have each value of one
     * byte ({@code bins}, 256), the least and greatest of their keys (as unsigned numbers; the
     * least above the greatest where none was counted), and the items, of any key, that force
     * every item back ({@code overflowed}: a SUM past 64 bits).
     */
    record Counts(long[] bins, long least, long greatest, long overflowed) {
        long total() {
            return Arrays.stream(bins).sum();
        }
    }

    /**
     * How many items have each value of one byte of their order key, among those whose key has
     * given bits: the device's {@code key_bytes} over the keys gathered. The keys counted have
     * their sign bit flipped, which orders them as unsigned numbers as they order as signed ones.
     */
    @FunctionalInterface
    interface ByteCounts {
        /** The counts, by the byte at {@code shift}, of the items whose key has the bits of {@code prefix} where {@code mask} has them. */
        Counts count(long prefix, long mask, int shift);
    }

    /** Whether keeping the first {@code count} of {@code items} pays: they are fewer than a quarter of them. */
    static boolean pays(long count, long items) {
        return count <= items / 4;
    }

    /**
     * The least key an item must have to be kept: that of the {@code count}-th item, found a byte
     * at a time from the most significant, each round counting by their next byte the keys that
     * share the bytes found so far, and stopping early where every key of the byte found is kept.
     * The bytes that the least and greatest key counted share are those of every key counted, so
     * the rounds for them are skipped: keys of values far smaller than 2^64 (prices, dates) share
     * their leading bytes. {@link Long#MIN_VALUE} keeps every item: cutting pays only where few of
     * many items are kept (not a quarter of them or more), and an integer SUM past 64 bits must come
     * back for the read-back to report it, as the CPU does for every group before its sort.
     */
    static long of(long count, ByteCounts counts) {
        long prefix = 0;
        long mask = 0;
        long need = count;
        for (int shift = 56; shift >= 0; shift -= 8) {
            Counts c = counts.count(prefix, mask, shift);
            if (shift == 56 && (c.overflowed() > 0 || !pays(count, c.total()))) {
                return Long.MIN_VALUE;
            }
            long[] bins = c.bins();
            int b = bins.length - 1;
            while (bins[b] < need) {
                need -= bins[b--];
            }
            prefix |= (long) b << shift;
            mask |= 0xffL << shift;
            if (bins[b] == need) {
                break;
            }
            int shared = Long.numberOfLeadingZeros(c.least() ^ c.greatest());
            while (shift >= 8 && shift - 8 >= 64 - shared) {
                shift -= 8;
                prefix |= c.least() & (0xffL << shift);
                mask |= 0xffL << shift;
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
        DeviceBuffer words = scratch.allocate(WORDS * 8L, "order key byte counts");
        long[] start = new long[WORDS];
        start[256] = -1;
        return of(count, (prefix, mask, shift) -> {
            words.upload(Pointer.to(start), 0, WORDS * 8L);
            GridLaunch.run(device, SOURCE, "key_bytes", n, Pointer.to(keys.pointer()), Pointer.to(new long[] {n}),
                    Pointer.to(new long[] {prefix}), Pointer.to(new long[] {mask}), Pointer.to(new int[] {shift}),
                    Pointer.to(words.pointer()));
            long[] counted = new long[WORDS];
            words.download(Pointer.to(counted), WORDS * 8L);
            return new Counts(Arrays.copyOf(counted, 256), counted[256], counted[257], overflowed);
        });
    }
}

package dev.starling.storage;

/**
 * The engine's hash of 64-bit keys, Fibonacci hashing: multiply by 2^64 / φ and take the top bits
 * (Knuth, The Art of Computer Programming, vol. 3, section 6.4). The one definition of the
 * multiplier: the CPU's hash tables use it here, and the GPU kernels are compiled with it
 * ({@code HASH_MULTIPLIER} in {@code kernels/hash.cuh}), so tables built on the host and probed on
 * the device agree.
 */
public final class Hashing {
    public static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

    private Hashing() { }

    /** The full 64-bit hash of {@code key}. */
    public static long hash(long key) {
        return key * MULTIPLIER;
    }

    /** {@code key}'s home slot in a table of 2^(64 - shift) slots: the hash's top bits. */
    public static long homeSlot(long key, int shift) {
        return hash(key) >>> shift;
    }

    /** A 32-bit hash for tables indexed by its low bits: the hash's halves folded together. */
    public static int hash32(long key) {
        long h = hash(key);
        return (int) (h ^ (h >>> 32));
    }
}

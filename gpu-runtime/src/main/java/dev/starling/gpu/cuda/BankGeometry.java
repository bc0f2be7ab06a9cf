package dev.starling.gpu.cuda;

/**
 * The shared-memory shape a clone layout is made for: {@code banks} banks of one 4-byte word each,
 * entry i in bank i mod banks, and a warp of {@code chunk} threads reading one fact row each, so
 * a chunk of that many consecutive rows is accessed at once. Read from the device where there is
 * one; {@link #DEFAULT} is every NVIDIA GPU since Kepler.
 */
public record BankGeometry(int banks, int chunk) {
    public static final BankGeometry DEFAULT = new BankGeometry(32, 32);

    public BankGeometry {
        if (banks < 1 || chunk < 1) {
            throw new IllegalArgumentException("banks and chunk size must be positive: " + banks + ", " + chunk);
        }
    }

    public int bank(int slot) {
        return slot % banks;
    }
}

package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.DeviceBuffer;
import java.util.BitSet;

/**
 * A column's values in device memory, all chunks end to end ({@code width} bytes per row), and its
 * NULL flags (one byte per row, 1 = NULL) when it has any. {@code absent}: the chunks whose rows are
 * not there yet (a scan copies in only the chunks it reads); empty once the column is whole.
 */
public record DeviceColumn(DeviceBuffer values, DeviceBuffer nulls, int width, long rows, BitSet absent)
        implements DeviceResident {

    /** A column whose every chunk is on the device. */
    public DeviceColumn(DeviceBuffer values, DeviceBuffer nulls, int width, long rows) {
        this(values, nulls, width, rows, new BitSet());
    }

    /** Whether every chunk is on the device. */
    public boolean whole() {
        synchronized (absent) {
            return absent.isEmpty();
        }
    }

    /** Whether chunk {@code c}'s rows are on the device. */
    public boolean has(int c) {
        synchronized (absent) {
            return !absent.get(c);
        }
    }

    /** Records that chunks {@code chunks} are on the device now. */
    void arrived(BitSet chunks) {
        synchronized (absent) {
            absent.andNot(chunks);
        }
    }

    @Override
    public long bytes() {
        return values.bytes() + (nulls == null ? 0 : nulls.bytes());
    }

    @Override
    public long heldBytes() {
        return values.heldBytes() + (nulls == null ? 0 : nulls.heldBytes());
    }

    @Override
    public void free() {
        values.close();
        if (nulls != null) {
            nulls.close();
        }
    }
}

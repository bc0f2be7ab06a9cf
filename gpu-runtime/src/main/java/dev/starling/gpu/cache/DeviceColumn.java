package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.DeviceBuffer;

/**
 * A column's values in device memory, all chunks end to end ({@code width} bytes per row), and its
 * NULL flags (one byte per row, 1 = NULL) when it has any.
 */
public record DeviceColumn(DeviceBuffer values, DeviceBuffer nulls, int width, long rows) implements DeviceResident {

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

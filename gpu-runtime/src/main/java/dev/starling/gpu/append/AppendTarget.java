package dev.starling.gpu.append;

import dev.starling.gpu.cuda.DeviceBuffer;

/**
 * A device column that appends write into: {@code width} bytes of values a row, and one byte of
 * NULL flags a row in {@code nulls} when it keeps them (else null).
 */
public record AppendTarget(DeviceBuffer values, DeviceBuffer nulls, int width) {

    /** How many rows it has room for. */
    public long capacityRows() {
        long rows = values.bytes() / width;
        return nulls == null ? rows : Math.min(rows, nulls.bytes());
    }
}

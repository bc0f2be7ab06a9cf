package dev.starling.gpu.pipeline;

import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.storage.DataType;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import jcuda.Pointer;

/**
 * Reads back a column a kernel wrote as a program's output: 64-bit values (a double as its bits)
 * and a NULL flag byte per row.
 */
final class WrittenValues {
    private WrittenValues() { }

    /** The first {@code n} values of {@code values} and flags of {@code nulls}, as a column of {@code type}. */
    static Vector read(DataType type, DeviceBuffer values, DeviceBuffer nulls, int n) {
        return vector(type, longs(values, n), flags(nulls, n));
    }

    /** {@code values} (a double's as its bits) with {@code nulls} (null: none), as a column of {@code type}. */
    static Vector vector(DataType type, long[] values, boolean[] nulls) {
        if (type.kind() != DataType.Kind.DOUBLE) {
            return Vector.ofLongs(type, values, nulls);
        }
        double[] doubles = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            doubles[i] = Double.longBitsToDouble(values[i]);
        }
        return Vector.ofDoubles(doubles, nulls);
    }

    static long[] longs(DeviceBuffer buffer, int n) {
        ByteBuffer bytes = DeviceArrays.buffer(8L * n);
        buffer.download(Pointer.to(bytes), 8L * n);
        long[] out = new long[n];
        LongBuffer longs = bytes.asLongBuffer();
        longs.get(out);
        return out;
    }

    /** The first {@code n} flags; null when none is set. */
    static boolean[] flags(DeviceBuffer buffer, int n) {
        ByteBuffer bytes = DeviceArrays.buffer(n);
        buffer.download(Pointer.to(bytes), n);
        boolean[] out = null;
        for (int i = 0; i < n; i++) {
            if (bytes.get(i) != 0) {
                out = out == null ? new boolean[n] : out;
                out[i] = true;
            }
        }
        return out;
    }
}

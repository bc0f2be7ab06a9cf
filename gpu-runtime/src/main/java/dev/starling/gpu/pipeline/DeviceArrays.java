package dev.starling.gpu.pipeline;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DeviceMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;

/**
 * The small device buffers of one kernel run (program, descriptors, dimension arrays), freed
 * together when the run closes (or one earlier, {@link #free}).
 */
final class DeviceArrays implements AutoCloseable {
    private final DeviceMemory memory;
    private final List<DeviceBuffer> buffers = new ArrayList<>();

    DeviceArrays(DeviceMemory memory) {
        this.memory = memory;
    }

    /** Frees {@code b}, one of these, before the rest. */
    void free(DeviceBuffer b) {
        if (buffers.remove(b)) {
            b.close();
        }
    }

    DeviceBuffer allocate(long bytes, String what) {
        DeviceBuffer b = memory.allocate(bytes, what);
        buffers.add(b);
        return b;
    }

    /** Copies the bytes of {@code data} (position 0 to its limit) into a new device buffer. */
    DeviceBuffer upload(ByteBuffer data, String what) {
        DeviceBuffer b = allocate(data.limit(), what);
        b.upload(Pointer.to(data), 0, data.limit());
        return b;
    }

    // Arrays go straight from the heap (no staging buffer): a hash table of hundreds of MB took
    // longer to stage than to copy, and an allocation that fails the budget now fails before any copy.
    DeviceBuffer upload(int[] values, String what) {
        DeviceBuffer b = allocate(values.length * 4L, what);
        b.upload(Pointer.to(values), 0, values.length * 4L);
        return b;
    }

    DeviceBuffer upload(long[] values, String what) {
        DeviceBuffer b = allocate(values.length * 8L, what);
        b.upload(Pointer.to(values), 0, values.length * 8L);
        return b;
    }

    DeviceBuffer upload(byte[] values, String what) {
        DeviceBuffer b = allocate(values.length, what);
        b.upload(Pointer.to(values), 0, values.length);
        return b;
    }

    /** The first {@code rows} NULL flags as the kernels read them, a byte each (at least one byte, never an empty upload). */
    static byte[] flags(boolean[] nulls, int rows) {
        byte[] out = new byte[Math.max(1, rows)];
        for (int r = 0; r < rows; r++) {
            out[r] = (byte) (nulls[r] ? 1 : 0);
        }
        return out;
    }

    static ByteBuffer buffer(long bytes) {
        return ByteBuffer.allocateDirect(Math.toIntExact(Math.max(bytes, 8))).order(ByteOrder.LITTLE_ENDIAN)
                .limit(Math.toIntExact(bytes));
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (DeviceBuffer b : buffers) {
            try {
                b.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        buffers.clear();
        if (first != null) {
            throw first;
        }
    }
}

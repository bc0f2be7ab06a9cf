package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.PinnedBuffer;
import dev.starling.gpu.cuda.StagedCopy;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;

/**
 * Copies a column's off-heap chunks to the device through two pinned staging buffers on a stream
 * of its own: chunks are packed into one buffer on the host (by several threads) while the other
 * crosses the link, and each full buffer crosses in one copy at pinned speed.
 */
final class ColumnUploader implements AutoCloseable {
    private static final int STAGING_BYTES = 32 << 20;

    private final GpuDevice device;
    private final PinnedBuffer[] staging = new PinnedBuffer[2];
    private GpuStream stream;

    ColumnUploader(GpuDevice device) {
        this.device = device;
    }

    DeviceColumn upload(Column column, String what) {
        int width = column.physical().width;
        long rows = column.chunks().stream().mapToLong(ColumnChunk::rows).sum();
        boolean hasNulls = column.chunks().stream().anyMatch(c -> c.nulls() != null);
        DeviceMemory memory = device.memory();
        DeviceBuffer values = memory.allocate(rows * width, what);
        try {
            copy(column, values, false);
            DeviceBuffer nulls = null;
            if (hasNulls) {
                nulls = memory.allocate(rows, what + " NULL flags");
                try {
                    copy(column, nulls, true);
                } catch (RuntimeException e) {
                    nulls.close();
                    throw e;
                }
            }
            return new DeviceColumn(values, nulls, width, rows);
        } catch (RuntimeException e) {
            values.close();
            throw e;
        }
    }

    private void copy(Column column, DeviceBuffer target, boolean nullFlags) {
        if (stream == null) {
            stream = new GpuStream(device);
            staging[0] = new PinnedBuffer(device, STAGING_BYTES);
            staging[1] = new PinnedBuffer(device, STAGING_BYTES);
        }
        try (StagedCopy copy = new StagedCopy(target, staging, stream)) {
            for (ColumnChunk chunk : column.chunks()) {
                long bytes = nullFlags ? chunk.rows() : (long) chunk.rows() * chunk.physical().width;
                if (!nullFlags) {
                    copy.put(chunk.values(), 0, bytes);
                } else if (chunk.nulls() != null) {
                    copy.put(chunk.nulls(), 0, bytes);
                } else {
                    copy.room(bytes).fill((byte) 0);
                }
            }
            copy.finish("uploading a column");
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < staging.length; i++) {
            if (staging[i] != null) {
                staging[i].close();
                staging[i] = null;
            }
        }
        if (stream != null) {
            stream.close();
            stream = null;
        }
    }
}

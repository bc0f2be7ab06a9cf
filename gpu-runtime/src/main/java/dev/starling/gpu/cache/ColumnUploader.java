package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.PinnedBuffer;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import java.lang.foreign.MemorySegment;

/**
 * Copies a column's off-heap chunks to the device through a pinned staging buffer: chunks are
 * packed into it on the host, and each full buffer crosses the link in one copy at pinned speed.
 */
final class ColumnUploader implements AutoCloseable {
    private static final int STAGING_BYTES = 32 << 20;

    private final GpuDevice device;
    private PinnedBuffer staging;

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
        if (staging == null) {
            staging = new PinnedBuffer(device, STAGING_BYTES);
        }
        MemorySegment stage = staging.segment();
        long deviceOffset = 0;
        long filled = 0;
        for (ColumnChunk chunk : column.chunks()) {
            long bytes = nullFlags ? chunk.rows() : (long) chunk.rows() * chunk.physical().width;
            if (filled + bytes > STAGING_BYTES) {
                target.upload(staging.pointer(), deviceOffset, filled);
                deviceOffset += filled;
                filled = 0;
            }
            if (!nullFlags) {
                MemorySegment.copy(chunk.values(), 0, stage, filled, bytes);
            } else if (chunk.nulls() != null) {
                MemorySegment.copy(chunk.nulls(), 0, stage, filled, bytes);
            } else {
                stage.asSlice(filled, bytes).fill((byte) 0);
            }
            filled += bytes;
        }
        target.upload(staging.pointer(), deviceOffset, filled);
    }

    @Override
    public void close() {
        if (staging != null) {
            staging.close();
            staging = null;
        }
    }
}

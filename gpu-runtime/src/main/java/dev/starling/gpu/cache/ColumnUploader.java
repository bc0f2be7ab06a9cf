package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.Table;
import java.util.BitSet;

/**
 * Makes room for columns in device memory and copies their chunks in ({@link ChunkUploads}) on a
 * stream of its own, waiting for the copies: a column wanted whole, or the chunks a scan left out.
 */
final class ColumnUploader implements AutoCloseable {
    private final GpuDevice device;
    private final HostPins pins;
    private GpuStream stream;

    ColumnUploader(GpuDevice device, HostPins pins) {
        this.device = device;
        this.pins = pins;
    }

    /** Device memory for all of {@code column}, none of its chunks there yet. */
    DeviceColumn allocate(Column column, String what) {
        int width = column.physical().width;
        long rows = column.chunks().stream().mapToLong(ColumnChunk::rows).sum();
        boolean hasNulls = column.chunks().stream().anyMatch(c -> c.nulls() != null);
        DeviceMemory memory = device.memory();
        DeviceBuffer values = memory.allocate(rows * width, what);
        try {
            DeviceBuffer nulls = hasNulls ? memory.allocate(rows, what + " NULL flags") : null;
            BitSet absent = new BitSet();
            absent.set(0, column.chunks().size());
            return new DeviceColumn(values, nulls, width, rows, absent);
        } catch (RuntimeException e) {
            values.close();
            throw e;
        }
    }

    /** All of {@code column} in device memory. */
    DeviceColumn upload(Column column, String what) {
        DeviceColumn dc = allocate(column, what);
        try {
            complete(column, dc);
            return dc;
        } catch (RuntimeException e) {
            dc.free();
            throw e;
        }
    }

    /** Copies in the chunks of {@code column} that {@code dc} lacks, and waits for them. */
    void complete(Column column, DeviceColumn dc) {
        BitSet missing;
        synchronized (dc.absent()) {
            missing = (BitSet) dc.absent().clone();
        }
        if (missing.isEmpty()) {
            return;
        }
        if (stream == null) {
            stream = new GpuStream(device);
        }
        try (ChunkUploads uploads = uploads(stream)) {
            for (int c = missing.nextSetBit(0); c >= 0; c = missing.nextSetBit(c + 1)) {
                uploads.copyChunk(column, c, dc.values(), dc.nulls(), (long) c << Table.CHUNK_SHIFT);
            }
            uploads.flush();
            stream.synchronize("uploading a column");
        }
        dc.arrived(missing);
    }

    /** Uploads of chunks on {@code stream}. */
    ChunkUploads uploads(GpuStream stream) {
        return new ChunkUploads(device, pins, stream);
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.close();
            stream = null;
        }
    }
}

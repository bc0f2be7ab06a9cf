package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.HostRegistrations;
import dev.starling.gpu.cuda.PinnedBuffer;
import dev.starling.gpu.cuda.StagedCopy;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import java.lang.foreign.MemorySegment;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * Queues copies of a column's chunks from host memory into device buffers on one stream: straight
 * from the chunks' memory, page-locked in place on the column's first copy ({@link HostPins}), in
 * one copy for each stretch of chunks that lie end to end in host memory and land end to end on
 * the device; memory that could not be page-locked is packed into two pinned staging buffers
 * first ({@link StagedCopy}; the buffers are the device's, kept across scans), but for a small piece (a chunk's first or last bytes in a page it
 * shares with other memory), which is copied as it is. A chunk without NULLs gets zeroed flags.
 * Copies are queued, not waited for: {@link #flush} sends what is staged, after which an event
 * recorded in the stream marks them all done. Closing it waits for staged copies still in flight.
 */
public final class ChunkUploads implements AutoCloseable {
    /** Pieces of memory not page-locked up to this size are copied as they are, not packed into a staging buffer. */
    private static final long DIRECT_BYTES = 64 << 10;

    private final GpuDevice device;
    private final HostPins pins;
    private final GpuStream stream;
    private final PinnedBuffer[] staging = new PinnedBuffer[2];
    private StagedCopy staged;
    /** The copy straight from host memory being gathered: source, target and length, and the registration it lies in. */
    private long source;
    private DeviceBuffer target;
    private long targetOffset;
    private long length;
    private long range = HostRegistrations.Piece.NONE;
    private long directBytes;
    private long stagedBytes;

    ChunkUploads(GpuDevice device, HostPins pins, GpuStream stream) {
        this.device = device;
        this.pins = pins;
        this.stream = stream;
    }

    /**
     * Queues chunk {@code chunk} of {@code column} into {@code values} and, where that is not null,
     * its NULL flags into {@code nulls}, as rows from {@code row} on.
     */
    public void copyChunk(Column column, int chunk, DeviceBuffer values, DeviceBuffer nulls, long row) {
        copy(column, chunk, false, values, row * column.physical().width);
        if (nulls != null) {
            copy(column, chunk, true, nulls, row);
        }
    }

    /**
     * Queues chunk {@code chunk} of {@code column}'s values ({@code flags}: its NULL flags, a byte a
     * row) to {@code target} at byte {@code offset}.
     */
    private void copy(Column column, int chunk, boolean flags, DeviceBuffer target, long offset) {
        ColumnChunk c = column.chunks().get(chunk);
        if (flags && c.nulls() == null) {
            send();
            Cuda.check(JCudaDriver.cuMemsetD8Async(target.pointer().withByteOffset(offset), (byte) 0, c.rows(),
                    stream.handle()), "cuMemsetD8Async");
            return;
        }
        pins.pin(column);
        MemorySegment from = flags ? c.nulls() : c.values();
        long bytes = flags ? c.rows() : (long) c.rows() * c.physical().width;
        device.registrations().split(from.address(), bytes, (address, n, in) -> {
            long at = offset + address - from.address();
            if (in == HostRegistrations.Piece.NONE && n <= DIRECT_BYTES) {
                // a chunk's edge in a page it shares: copied as it is, the driver staging it
                send();
                target.uploadAsync(new Pointer().withByteOffset(address), at, n, stream);
                stagedBytes += n;
            } else if (in == HostRegistrations.Piece.NONE) {
                send();
                stagedCopy().put(from, address - from.address(), n, target, at);
                stagedBytes += n;
            } else {
                gather(address, n, in, target, at);
                directBytes += n;
            }
        });
    }

    /** Adds a copy straight from pinned host memory to the one being gathered, or sends that one and starts another. */
    private void gather(long address, long n, long in, DeviceBuffer to, long at) {
        boolean continues = length > 0 && in == range && address == source + length && to == target
                && at == targetOffset + length;
        if (!continues) {
            send();
            source = address;
            target = to;
            targetOffset = at;
            range = in;
        }
        length += n;
    }

    private void send() {
        if (length > 0) {
            target.uploadAsync(new Pointer().withByteOffset(source), targetOffset, length, stream);
            length = 0;
        }
    }

    private StagedCopy stagedCopy() {
        if (staged == null) {
            staging[0] = device.staging().take();
            staging[1] = device.staging().take();
            staged = new StagedCopy(staging, stream);
        }
        return staged;
    }

    /** Sends every copy queued so far to the stream. */
    public void flush() {
        send();
        if (staged != null) {
            staged.flush();
        }
    }

    /** Bytes copied straight from page-locked table memory so far. */
    public long directBytes() {
        return directBytes;
    }

    /** Bytes copied from memory not page-locked so far (packed into staging buffers, or staged by the driver). */
    public long stagedBytes() {
        return stagedBytes;
    }

    @Override
    public void close() {
        try {
            if (staged != null) {
                staged.close();
            }
        } finally {
            for (int i = 0; i < staging.length; i++) {
                if (staging[i] != null) {
                    device.staging().give(staging[i]);
                    staging[i] = null;
                }
            }
        }
    }
}

package dev.starling.gpu.append;

import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import java.util.List;
import jcuda.Pointer;

/**
 * Moves each batch with one asynchronous copy per column (and per NULL flags) from its slot, and an
 * event that frees the slot: the copy engines run at the link's full rate, but every batch pays the
 * calls, which for small batches is most of the time.
 */
public final class CopyAppender extends DeviceAppender {
    private final GpuStream.Event[] landed;

    public CopyAppender(GpuDevice device, List<AppendTarget> targets, int slots, long slotBytes) {
        super(device, targets, slots, slotBytes);
        this.landed = new GpuStream.Event[slots];
    }

    @Override
    protected void submit(int slot, long batch, long firstRow, long rows, long[] offsets) {
        device.makeCurrent();
        Pointer slotStart = ring.ring().hostPointer().withByteOffset((long) slot * ring.slotBytes());
        int columns = targets.size();
        for (int c = 0; c < columns; c++) {
            AppendTarget t = targets.get(c);
            t.values().uploadAsync(slotStart.withByteOffset(offsets[c]), firstRow * t.width(), rows * t.width(), stream);
            if (t.nulls() != null) {
                t.nulls().uploadAsync(slotStart.withByteOffset(offsets[columns + c]), firstRow, rows, stream);
            }
        }
        landed[slot] = stream.record();
    }

    @Override
    protected void awaitLanded(int slot, long batch) {
        GpuStream.Event e = landed[slot];
        if (e != null) {
            landed[slot] = null;
            try {
                e.await("appending rows to device columns");
            } finally {
                e.close();
            }
        }
    }

    @Override
    protected void finish() {
        try {
            stream.synchronize("appending rows to device columns");
        } finally {
            // a failed wait leaves the other slots' events
            for (int s = 0; s < landed.length; s++) {
                if (landed[s] != null) {
                    landed[s].close();
                    landed[s] = null;
                }
            }
        }
    }
}

package dev.starling.gpu.clone;

import dev.starling.gpu.cache.DeviceResident;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.DeviceMemory;
import jcuda.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A clone layout in device memory: per fact row the entry it accesses ({@code slots}, 32-bit),
 * per entry the original code it holds ({@code cloneMap}, -1 for a hole), {@code entries}
 * entries in all; and what building it took.
 */
public record DeviceCloneLayout(DeviceBuffer slots, DeviceBuffer cloneMap, int entries, double copiesPerValue,
                                double optimizeMillis) implements DeviceResident {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceCloneLayout.class);

    /** Optimizes {@code codes} under {@code spec} and uploads the result; {@code what} names it in errors. */
    public static DeviceCloneLayout build(DeviceMemory memory, ColumnCodes codes, CloneSpec spec, String what) {
        CloneLayout layout = spec.optimize(codes);
        LOG.info("{}: {} entries, {} copies per value, optimized in {} ms", what, layout.cloneMap().length,
                String.format("%.2f", layout.copiesPerValue()), layout.optimizeNanos() / 1_000_000);
        DeviceBuffer slots = memory.upload(Pointer.to(layout.slots()), 4L * layout.slots().length, what + " slots");
        try {
            DeviceBuffer map = memory.upload(Pointer.to(layout.cloneMap()), 4L * layout.cloneMap().length,
                    what + " clone map");
            return new DeviceCloneLayout(slots, map, layout.cloneMap().length, layout.copiesPerValue(),
                    layout.optimizeNanos() / 1e6);
        } catch (RuntimeException e) {
            slots.close();
            throw e;
        }
    }

    @Override
    public long bytes() {
        return slots.bytes() + cloneMap.bytes();
    }

    @Override
    public long heldBytes() {
        return slots.heldBytes() + cloneMap.heldBytes();
    }

    @Override
    public void free() {
        slots.close();
        cloneMap.close();
    }
}

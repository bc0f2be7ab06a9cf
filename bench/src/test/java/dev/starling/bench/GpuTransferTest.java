package dev.starling.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuException;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.MappedHostBuffer;
import dev.starling.gpu.cuda.PinnedBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jcuda.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the GPU host: every transfer method delivers the same words to the kernel, and frees what it took. */
@Tag("gpu")
class GpuTransferTest {
    private static final int WORDS = 9_000_001;  // not a multiple of any chunk

    @Test
    void everyMethodDeliversTheSameWords() {
        GpuDevice device;
        try {
            device = GpuDevice.open(0, 0);
        } catch (GpuException e) {
            assumeTrue(false, "no GPU: " + e.getMessage());
            return;
        }
        long bytes = WORDS * 8L;
        long expected = (long) WORDS * (WORDS - 1) / 2;
        try (device; Arena arena = Arena.ofShared();
             DeviceBuffer target = device.memory().allocate(bytes, "target");
             DeviceBuffer sum = device.memory().allocate(8, "sum");
             PinnedBuffer pinned = new PinnedBuffer(device, (int) bytes);
             PinnedBuffer stageA = new PinnedBuffer(device, 12 << 20);
             PinnedBuffer stageB = new PinnedBuffer(device, 12 << 20);
             MappedHostBuffer mapped = new MappedHostBuffer(device, bytes);
             GpuStream s0 = new GpuStream(device);
             GpuStream s1 = new GpuStream(device);
             GpuStream s2 = new GpuStream(device)) {
            MemorySegment pageable = arena.allocate(bytes, 8);
            for (long i = 0; i < WORDS; i++) {
                pageable.setAtIndex(ValueLayout.JAVA_LONG, i, i);
            }
            MemorySegment.copy(pageable, 0, pinned.segment(), 0, bytes);
            MemorySegment.copy(pageable, 0, mapped.segment(), 0, bytes);
            HostTransfers t = new HostTransfers(device);
            sum.clear();
            t.pageable(pageable, target, sum);
            assertEquals(expected, read(sum), "pageable");
            sum.clear();
            target.clear();
            t.staged(pageable, target, new PinnedBuffer[] {stageA, stageB}, s0, sum);
            assertEquals(expected, read(sum), "staged");
            sum.clear();
            target.clear();
            t.pinned(pinned, bytes, target, sum);
            assertEquals(expected, read(sum), "pinned");
            sum.clear();
            target.clear();
            t.pipelined(pinned, bytes, 1 << 20, target, new GpuStream[] {s0, s1, s2}, sum);
            assertEquals(expected, read(sum), "pipelined");
            sum.clear();
            t.zeroCopy(mapped, sum);
            assertEquals(expected, read(sum), "zero-copy");
        }
    }

    private static long read(DeviceBuffer sum) {
        long[] v = new long[1];
        sum.download(Pointer.to(v), 8);
        return v[0];
    }
}

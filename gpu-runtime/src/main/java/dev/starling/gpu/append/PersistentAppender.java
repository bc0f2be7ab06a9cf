package dev.starling.gpu.append;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.KernelStruct;
import dev.starling.gpu.cuda.KernelStructs;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.lang.invoke.VarHandle;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * Moves batches with one kernel that stays on the device while they come, the persistent operator
 * of XeFlow ("Streamlining Inter-Processor Pipeline Execution", sections 3 and 5.1): publishing a
 * batch is a store into mapped pinned memory, and its landing a load, with no launch or copy call
 * per batch. The kernel reads the slots over the link (zero-copy), slower than the copy engines for
 * large batches, which is why {@link AppendPath} picks it for small ones only.
 *
 * <p>A running kernel holds back everything that waits for the whole device (a query's
 * {@code cuCtxSynchronize}), so it runs only while batches come: {@link #pause} ends it, after which
 * the next batch launches it again. The appending thread must not allocate device memory while it
 * runs: reusing a freed block waits for the whole device, and so for this kernel.
 */
public final class PersistentAppender extends DeviceAppender {
    private static final String KERNELS = "append";
    private static final int THREADS = 256;

    private final int blocks;
    private final DeviceBuffer targetTable;
    /** Two mirror words, then one finished-blocks counter a slot. */
    private final DeviceBuffer scratch;
    private boolean running;

    public PersistentAppender(GpuDevice device, List<AppendTarget> targets, int slots, long slotBytes, int blocks) {
        super(device, targets, slots, slotBytes);
        this.blocks = Math.max(1, Math.min(blocks, device.multiprocessors()));
        DeviceBuffer table = null;
        try {
            KernelStruct struct = KernelStructs.APPEND_TARGET;
            // off the heap: the driver reads it for an asynchronous copy, which takes no Java array
            ByteBuffer words = ByteBuffer.allocateDirect(Math.toIntExact(struct.bytes() * targets.size()));
            MemorySegment t = MemorySegment.ofBuffer(words);
            VarHandle values = struct.arrayField("values");
            VarHandle nulls = struct.arrayField("nulls");
            VarHandle width = struct.arrayField("width");
            for (int i = 0; i < targets.size(); i++) {
                AppendTarget target = targets.get(i);
                values.set(t, 0L, (long) i, target.values().address());
                nulls.set(t, 0L, (long) i, target.nulls() == null ? 0L : target.nulls().address());
                width.set(t, 0L, (long) i, (long) target.width());
            }
            // on the kernel's stream: a copy on the default stream may not have landed when the
            // kernel, on a stream that does not wait for it, reads the table
            table = device.memory().allocate(words.capacity(), "persistent append targets");
            table.uploadAsync(Pointer.to(words), 0, words.capacity(), stream);
            this.scratch = device.memory().allocate(16 + 4L * slots, "persistent append counters");
        } catch (RuntimeException e) {
            if (table != null) {
                table.close();
            }
            stream.close();
            ring.close();
            throw e;
        }
        this.targetTable = table;
    }

    @Override
    protected void submit(int slot, long batch, long firstRow, long rows, long[] offsets) {
        if (!running) {
            launch(batch);
        }
        ring.publish(batch + 1);
    }

    private void launch(long firstBatch) {
        device.makeCurrent();
        ring.stop(false);
        Cuda.check(JCudaDriver.cuMemsetD8Async(scratch.pointer(), (byte) 0, scratch.bytes(), stream.handle()),
                "cuMemsetD8Async");
        CUfunction f = device.kernel(KERNELS, "persistent_append");
        Pointer params = Pointer.to(
                Pointer.to(new long[] {ring.control().address()}), Pointer.to(new long[] {ring.ring().address()}),
                Pointer.to(new long[] {ring.slotBytes()}), Pointer.to(new int[] {ring.slots()}),
                Pointer.to(targetTable.pointer()), Pointer.to(new int[] {targets.size()}),
                Pointer.to(scratch.pointer()), Pointer.to(scratch.pointer().withByteOffset(16)),
                Pointer.to(new long[] {firstBatch}));
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, THREADS, 1, 1, 0, stream.handle(), params, null),
                "launch of persistent_append");
        running = true;
    }

    @Override
    protected void awaitLanded(int slot, long batch) {
        long spins = 0;
        while (ring.landed(slot) < batch) {
            if (++spins % 4096 == 0) {
                checkKernel(batch);
            }
            Thread.onSpinWait();
        }
    }

    /** A kernel that failed, or ended, never lands its batch: says so instead of waiting for ever. */
    private void checkKernel(long batch) {
        int state = JCudaDriver.cuStreamQuery(stream.handle());
        if (state == CUresult.CUDA_ERROR_NOT_READY) {
            return;
        }
        running = false;
        Cuda.check(state, "persistent_append");
        throw new IllegalStateException("the persistent append kernel ended before batch " + batch + " landed");
    }

    /** Ends the kernel once every batch has landed; the next batch launches it again. */
    public void pause() {
        drain();
        stopKernel();
    }

    /** Whether the kernel is on the device now. */
    public boolean running() {
        return running;
    }

    private void stopKernel() {
        if (running) {
            ring.stop(true);
            running = false;
            stream.synchronize("persistent_append");
        }
    }

    @Override
    protected void finish() {
        try {
            stopKernel();
        } finally {
            targetTable.close();
            scratch.close();
        }
    }
}

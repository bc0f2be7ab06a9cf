package dev.starling.gpu.pipeline;

import dev.starling.exec.vector.Vector;
import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import java.util.Optional;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;

/**
 * A hashed dimension's join table built on the GPU ({@code hash_build.cu}): the build rows' keys
 * (and NULL flags) cross the link once, 8 bytes a row, and threads insert them into the table in
 * device memory, where the host would write a table twice as many slots wide at random (a cache
 * miss a key) and then copy all of it; a dimension built on the GPU ({@link GpuDimensionBuild})
 * writes its keys in device memory, and nothing crosses. The layout is {@link DimensionHashTable}'s,
 * so the kernels probe it alike. Empty when the host must build it after all: the table does not fit the budget
 * (the host then places it hybrid or partitioned), or a key is the kernel's empty-slot marker (or,
 * which its sizing rules out, the table fills up).
 */
final class GpuHashTableBuild {
    private static final String SOURCE = "hash_build";
    private static final int KEY_REPEATS = 1;
    private static final int KEY_IS_MARKER = 2;
    private static final int TABLE_FULL = 4;

    private GpuHashTableBuild() { }

    /**
     * The table over the first {@code rows} of {@code keys}, in {@code arrays} (freed with them);
     * throws {@link Unsupported} when a key repeats (dimension {@code d}'s join would multiply rows)
     * unless {@code keysMayRepeat} (a join that only asks whether a key is there: one of its rows
     * stays in the table).
     */
    static Optional<StarKernelInput.HashTable> build(GpuDevice device, DeviceArrays arrays, int d, Vector keys, int rows,
                                                     boolean keysMayRepeat) throws Unsupported {
        try (DeviceArrays input = new DeviceArrays(device.memory())) {
            DeviceBuffer keyWords = input.allocate(Math.max(8, 8L * rows), "dimension " + d + " build keys");
            if (rows > 0) {
                keyWords.upload(Pointer.to(keys.longs()), 0, 8L * rows);
            }
            DeviceBuffer nulls = keys.nulls() == null ? null : input.upload(DeviceArrays.flags(keys.nulls(), rows),
                    "dimension " + d + " build key NULLs");
            return build(device, arrays, d, new StarKernelInput.Column(keyWords.address(),
                    nulls == null ? 0 : nulls.address(), 8), rows, keysMayRepeat);
        } catch (GpuOutOfMemoryException e) {
            return Optional.empty();
        }
    }

    /**
     * The same over keys already in device memory: 64-bit words, and NULL flags where {@code keys}
     * has them (a row whose flag is set is left out, as a NULL key matches nothing).
     */
    static Optional<StarKernelInput.HashTable> build(GpuDevice device, DeviceArrays arrays, int d,
                                                     StarKernelInput.Column keys, long rows, boolean keysMayRepeat)
            throws Unsupported {
        long capacity = DimensionHashTable.capacity(rows);
        int shift = 64 - Long.numberOfTrailingZeros(capacity);
        try (DeviceArrays scratch = new DeviceArrays(device.memory())) {
            DeviceBuffer status = scratch.upload(new int[] {0}, "dimension " + d + " hash build status");
            // last, so that a table past the budget has taken nothing
            DeviceBuffer slots = arrays.allocate(capacity * DimensionHashTable.SLOT_BYTES, "dimension " + d + " hash table");
            device.makeCurrent();
            int threads = StarKernelLauncher.THREADS;
            launch(device, "init_hash_slots", blocks(device, capacity, threads), threads,
                    Pointer.to(Pointer.to(new long[] {slots.address()}), Pointer.to(new long[] {capacity})));
            launch(device, "build_hash_table", blocks(device, rows, threads), threads,
                    Pointer.to(Pointer.to(new long[] {keys.values()}), Pointer.to(new long[] {keys.nulls()}),
                            Pointer.to(new long[] {rows}), Pointer.to(new long[] {slots.address()}),
                            Pointer.to(new int[] {shift}), Pointer.to(status.pointer())));
            device.synchronize("build_hash_table");
            int[] failed = new int[1];
            status.download(Pointer.to(failed), 4);
            if ((failed[0] & KEY_REPEATS) != 0 && !keysMayRepeat) {
                throw new Unsupported("the build side of hash join " + d + " has duplicate keys");
            }
            if ((failed[0] & (KEY_IS_MARKER | TABLE_FULL)) != 0) {
                arrays.free(slots);
                return Optional.empty();
            }
            return Optional.of(new StarKernelInput.HashTable(slots.address(), 0, 0, shift));
        } catch (GpuOutOfMemoryException e) {
            return Optional.empty();
        }
    }

    private static int blocks(GpuDevice device, long items, int threads) {
        return (int) Math.max(1, Math.min((items + threads - 1) / threads, device.multiprocessors() * 32L));
    }

    private static void launch(GpuDevice device, String kernel, int blocks, int threads, Pointer parameters) {
        CUfunction f = device.kernel(SOURCE, kernel);
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, null, parameters, null),
                "launch of " + kernel);
    }
}

package dev.starling.bench;

import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import jcuda.NativePointerObject;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.JCudaDriver;

/**
 * A benchmark's own CUDA C (the bench module's {@code src/main/cuda}), compiled by the engine's
 * compiler beside the kernels module's headers, launched and timed with events. The bench's
 * headers are joined into the source in the order given, in place of their includes (and
 * without their include guards, which would mean nothing in one file).
 */
final class BenchKernels implements AutoCloseable {
    private static final String FOLDER = "/dev/starling/bench/cuda/";

    private final GpuDevice device;
    private final String source;
    private final CUevent start = new CUevent();
    private final CUevent stop = new CUevent();

    BenchKernels(GpuDevice device, List<String> headers, String file) {
        this.device = device;
        String joined = "(?m)^(#pragma once|#include \"(" + String.join("|", headers) + ")\")$";
        StringBuilder text = new StringBuilder();
        for (String h : headers) {
            text.append(read(h).replaceAll(joined, ""));
        }
        this.source = text.append(read(file).replaceAll(joined, "")).toString();
        device.makeCurrent();
        Cuda.check(JCudaDriver.cuEventCreate(start, 0), "cuEventCreate");
        Cuda.check(JCudaDriver.cuEventCreate(stop, 0), "cuEventCreate");
    }

    /** Kernel {@code entry}, compiled on first use. */
    CUfunction function(String entry) {
        // the engine keeps one module per source text: the entry's name makes each its own
        return device.compiled(source + "\n// " + entry + "\n", entry);
    }

    /** Runs kernel {@code entry} over {@code blocks} blocks of {@code threads}; its time in milliseconds. */
    double time(String entry, int blocks, int threads, Object... args) {
        CUfunction f = function(entry);
        NativePointerObject[] params = new NativePointerObject[args.length];
        for (int i = 0; i < args.length; i++) {
            params[i] = switch (args[i]) {
                case DeviceBuffer b -> Pointer.to(b.pointer());
                case Long v -> Pointer.to(new long[] {v});
                case Integer v -> Pointer.to(new int[] {v});
                default -> throw new IllegalArgumentException("a kernel argument of " + args[i].getClass());
            };
        }
        Cuda.check(JCudaDriver.cuEventRecord(start, null), "cuEventRecord");
        Cuda.check(JCudaDriver.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, null, Pointer.to(params), null),
                "cuLaunchKernel(" + entry + ")");
        Cuda.check(JCudaDriver.cuEventRecord(stop, null), "cuEventRecord");
        Cuda.check(JCudaDriver.cuEventSynchronize(stop), "cuEventSynchronize(" + entry + ")");
        float[] ms = new float[1];
        Cuda.check(JCudaDriver.cuEventElapsedTime(ms, start, stop), "cuEventElapsedTime");
        return ms[0];
    }

    /** Times {@code work} (fills and copies) as the device runs it. */
    double time(Runnable work) {
        Cuda.check(JCudaDriver.cuEventRecord(start, null), "cuEventRecord");
        work.run();
        Cuda.check(JCudaDriver.cuEventRecord(stop, null), "cuEventRecord");
        Cuda.check(JCudaDriver.cuEventSynchronize(stop), "cuEventSynchronize");
        float[] ms = new float[1];
        Cuda.check(JCudaDriver.cuEventElapsedTime(ms, start, stop), "cuEventElapsedTime");
        return ms[0];
    }

    private static String read(String file) {
        try (InputStream in = BenchKernels.class.getResourceAsStream(FOLDER + file)) {
            if (in == null) {
                throw new IllegalStateException("no " + FOLDER + file + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        JCudaDriver.cuEventDestroy(start);
        JCudaDriver.cuEventDestroy(stop);
    }
}

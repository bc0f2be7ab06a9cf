package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.MappedHostBuffer;
import dev.starling.storage.DataType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import jcuda.Pointer;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The round trip between the host and a persistent kernel through mapped pinned memory
 * ({@code handover_bench.cu}), variant by variant: the persistent append operator's own protocol
 * (XeFlow, "Streamlining Inter-Processor Pipeline Execution", sections 3 and 5.1; append.cu), then
 * each with one thing changed (the kernel's back-off sleep, its system-scope fences, how many
 * blocks take part, the host asking the driver about the stream while it waits, a slot copied over
 * the link). The append operator took some 0.9 ms a batch on the H100 where the design expects
 * microseconds (docs/BENCHMARKS.md, 2026-12-08); the variant whose round trip falls says why.
 */
@Command(name = "starling-handover-bench", mixinStandardHelpOptions = true,
        description = "Measures host-to-kernel hand-overs through mapped memory, variant by variant.")
public final class HandoverBenchMain implements Callable<Integer> {
    private static final int SLEEP = 1;
    private static final int STRONG = 2;
    private static final int COPY = 4;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    /** The kernel's first block polls the host; the others poll its mirror in device memory. */
    private static final int THREADS = 256;

    @Option(names = "--rounds", description = "Round trips per variant (default: ${DEFAULT-VALUE}).")
    private int rounds = 2000;

    @Option(names = "--copy-kib", description = "KiB the COPY variants move per round (default: ${DEFAULT-VALUE}).")
    private int copyKib = 4;

    /** One way of handing over: the kernel's mode bits, its blocks, where pong lies, and whether the host queries the stream. */
    private record Variant(String name, int mode, int blocks, int pongWord, boolean queryStream) { }

    public static void main(String[] args) {
        System.exit(new CommandLine(new HandoverBenchMain()).execute(args));
    }

    @Override
    public Integer call() {
        List<Variant> variants = List.of(
                new Variant("append.cu as it is (32 blocks, sleep, sys fences, 4 KiB copied, stream queried)",
                        SLEEP | STRONG | COPY, 32, 2, true),
                new Variant("  the same, stream not queried", SLEEP | STRONG | COPY, 32, 2, false),
                new Variant("  no copy", SLEEP | STRONG, 32, 2, false),
                new Variant("  no copy, pong on its own cache line", SLEEP | STRONG, 32, 8, false),
                new Variant("  no copy, no sleep", STRONG, 32, 2, false),
                new Variant("  no copy, volatile (no sys fences)", SLEEP, 32, 2, false),
                new Variant("  no copy, volatile, no sleep", 0, 32, 2, false),
                new Variant("one block, sleep, sys fences", SLEEP | STRONG, 1, 2, false),
                new Variant("one block, no sleep, sys fences", STRONG, 1, 2, false),
                new Variant("one block, volatile, no sleep", 0, 1, 2, false),
                new Variant("one block, volatile, no sleep, 4 KiB copied", COPY, 1, 2, false));
        try (GpuDevice device = GpuDevice.open(0, 0);
             BenchKernels kernels = new BenchKernels(device, List.of(), "handover_bench.cu");
             MappedHostBuffer words = device.mappedHost(4096);
             MappedHostBuffer slot = device.mappedHost((long) copyKib << 10);
             DeviceBuffer scratch = device.memory().allocate(4096, "hand-over scratch");
             DeviceBuffer dst = device.memory().allocate((long) copyKib << 10, "hand-over copies");
             GpuStream stream = new GpuStream(device)) {
            System.out.printf("%s; %d round trips a variant, %d threads a block; Java %s%n%n", device.describe(), rounds,
                    THREADS, System.getProperty("java.version"));
            List<List<Object>> rows = new ArrayList<>();
            for (Variant v : variants) {
                long[] nanos = run(device, kernels, v, words, slot, scratch, dst, stream);
                Arrays.sort(nanos);
                double mean = Arrays.stream(nanos).average().orElse(0) / 1e3;
                List<Object> row = List.of(v.name(), v.blocks(), nanos[nanos.length / 2] / 1e3,
                        nanos[(int) (nanos.length * 0.99)] / 1e3, mean);
                System.out.printf("  %-80s p50 %8.1f us  p99 %8.1f us%n", v.name(), row.get(2), row.get(3));
                rows.add(row);
            }
            System.out.println();
            System.out.print(new QueryResult(List.of(new Field("variant", DataType.VARCHAR, false),
                    new Field("blocks", DataType.INTEGER, false), new Field("p50_us", DataType.DOUBLE, false),
                    new Field("p99_us", DataType.DOUBLE, false), new Field("mean_us", DataType.DOUBLE, false)),
                    rows).toText());
        }
        return 0;
    }

    /** Each round trip's nanoseconds under variant {@code v}, the kernel launched once for them all. */
    private long[] run(GpuDevice device, BenchKernels kernels, Variant v, MappedHostBuffer words, MappedHostBuffer slot,
                       DeviceBuffer scratch, DeviceBuffer dst, GpuStream stream) {
        MemorySegment w = words.segment();
        w.fill((byte) 0);
        device.makeCurrent();
        Cuda.check(JCudaDriver.cuMemsetD8Async(scratch.pointer(), (byte) 0, scratch.bytes(), stream.handle()),
                "cuMemsetD8Async");
        Pointer params = Pointer.to(Pointer.to(new long[] {words.address()}), Pointer.to(new int[] {v.pongWord()}),
                Pointer.to(scratch.pointer()), Pointer.to(scratch.pointer().withByteOffset(64)),
                Pointer.to(new long[] {slot.address()}), Pointer.to(dst.pointer()),
                Pointer.to(new long[] {slot.bytes()}), Pointer.to(new long[] {rounds}), Pointer.to(new int[] {v.mode()}));
        Cuda.check(JCudaDriver.cuLaunchKernel(kernels.function("handover"), v.blocks(), 1, 1, THREADS, 1, 1, 0,
                stream.handle(), params, null), "launch of handover");
        long[] nanos = new long[rounds];
        try {
            for (int k = 0; k < rounds; k++) {
                long start = System.nanoTime();
                WORD.setRelease(w, 0L, (long) k + 1);
                long spins = 0;
                while ((long) WORD.getAcquire(w, 8L * v.pongWord()) < k + 1) {
                    if (++spins % 4096 == 0) {
                        if (v.queryStream()) {
                            int state = JCudaDriver.cuStreamQuery(stream.handle());
                            if (state != CUresult.CUDA_ERROR_NOT_READY) {
                                Cuda.check(state, "handover");
                                throw new IllegalStateException("the hand-over kernel ended before round " + k);
                            }
                        }
                        if (System.nanoTime() - start > 5_000_000_000L) {
                            throw new IllegalStateException("round " + k + " of '" + v.name() + "' took over 5 s");
                        }
                    }
                    Thread.onSpinWait();
                }
                nanos[k] = System.nanoTime() - start;
            }
        } finally {
            // every round pinged at once: a kernel still waiting runs through to its end
            WORD.setRelease(w, 0L, Long.MAX_VALUE);
            stream.synchronize("handover");
        }
        return nanos;
    }
}

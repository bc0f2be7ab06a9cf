package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.MappedHostBuffer;
import dev.starling.gpu.cuda.PinnedBuffer;
import dev.starling.storage.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The host-to-GPU transfer methods on the GPU host: per method, the median time of moving a block
 * of host memory into a kernel's hands, as GB/s and as a share of the link's pinned ceiling.
 */
@Command(name = "starling-transfer-bench", mixinStandardHelpOptions = true,
        description = "Measures pageable, staged, pinned, pipelined and zero-copy transfers to the GPU.")
public final class TransferBenchMain implements Callable<Integer> {
    /** PCIe 5 x16 pinned host-to-device ceiling measured on the GPU host (the figure). */
    private static final double CEILING_GBPS = 54.8;

    @Option(names = "--mib", description = "MiB moved per run (default: ${DEFAULT-VALUE}).")
    private int mib = 1024;

    @Option(names = "--runs", description = "Measured runs per method after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    @Option(names = "--streams", description = "Streams of the pipelined method (default: ${DEFAULT-VALUE}).")
    private int streamCount = 4;

    @Option(names = "--chunk-mib", description = "Chunk of the staged and pipelined methods in MiB (default: ${DEFAULT-VALUE}).")
    private int chunkMib = 32;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TransferBenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long bytes = (long) mib << 20;
        long chunk = (long) chunkMib << 20;
        try (GpuDevice device = GpuDevice.open(0, 0); Arena arena = Arena.ofShared();
             DeviceBuffer target = device.memory().allocate(bytes, "target");
             DeviceBuffer sum = device.memory().allocate(8, "sum");
             PinnedBuffer pinned = new PinnedBuffer(device, Math.toIntExact(bytes));
             PinnedBuffer stageA = new PinnedBuffer(device, Math.toIntExact(chunk));
             PinnedBuffer stageB = new PinnedBuffer(device, Math.toIntExact(chunk));
             MappedHostBuffer mapped = new MappedHostBuffer(device, bytes)) {
            MemorySegment pageable = arena.allocate(bytes, 64);
            pageable.fill((byte) 1);
            pinned.segment().fill((byte) 1);
            mapped.segment().fill((byte) 1);
            GpuStream[] streams = new GpuStream[streamCount];
            for (int s = 0; s < streams.length; s++) {
                streams[s] = new GpuStream(device);
            }
            try {
                HostTransfers t = new HostTransfers(device);
                System.out.printf("%s; %d MiB per run, median of %d runs; Java %s%n%n", device.describe(), mib, runs,
                        System.getProperty("java.version"));
                List<List<Object>> rows = new ArrayList<>();
                rows.add(row("pageable copy", bytes, () -> t.pageable(pageable, target, sum)));
                rows.add(row("staged through 2 pinned buffers", bytes,
                        () -> t.staged(pageable, target, new PinnedBuffer[] {stageA, stageB}, streams[0], sum)));
                rows.add(row("pinned copy", bytes, () -> t.pinned(pinned, bytes, target, sum)));
                MemorySegment inPlace = arena.allocate(bytes, 4096);
                inPlace.fill((byte) 1);
                long start = System.nanoTime();
                device.registrations().register(inPlace.address(), bytes, inPlace);
                System.out.printf("page-locking %d MiB in place took %.1f ms%n", mib, (System.nanoTime() - start) / 1e6);
                for (long piece : new long[] {bytes, 4 << 20, 512 << 10, 256 << 10}) {
                    rows.add(row("page-locked in place, copies of " + (piece >> 10) + " KiB", bytes,
                            () -> t.registered(inPlace, piece, target, streams[0], sum)));
                }
                rows.add(row("pinned, " + streamCount + " streams, kernel per chunk", bytes,
                        () -> t.pipelined(pinned, bytes, chunk, target, streams, sum)));
                rows.add(row("zero-copy kernel reads", bytes, () -> t.zeroCopy(mapped, sum)));
                System.out.print(new QueryResult(List.of(
                        new Field("method", DataType.VARCHAR, false),
                        new Field("ms", DataType.DOUBLE, false),
                        new Field("GB/s", DataType.DOUBLE, false),
                        new Field("of_pinned_ceiling", DataType.DOUBLE, false)), rows).toText());
            } finally {
                for (GpuStream s : streams) {
                    s.close();
                }
            }
        }
        return 0;
    }

    private List<Object> row(String method, long bytes, WarmTimer.Run transfer) throws Exception {
        double median = new WarmTimer(runs).medianMillis(transfer);
        double gbps = bytes / median / 1e6;
        return List.of(method, median, gbps, gbps / CEILING_GBPS);
    }
}

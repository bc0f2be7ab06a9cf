package dev.starling.bench;

import dev.starling.exec.QueryResult;
import dev.starling.exec.plan.Field;
import dev.starling.gpu.append.AppendTarget;
import dev.starling.gpu.append.CopyAppender;
import dev.starling.gpu.append.DeviceAppender;
import dev.starling.gpu.append.PersistentAppender;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.DataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Appends to a device column in batches of 4 KB to 64 MB, through a copy call per batch and through
 * the persistent append kernel (XeFlow's persistent operator): per batch size, the time per batch
 * and the throughput when batches follow each other (the slots let the host fill one while the
 * device takes another), and the time for one batch alone (appended, then waited for). The
 * crossover is the largest batch size at which the kernel still moves batches faster.
 */
@Command(name = "starling-append-bench", mixinStandardHelpOptions = true,
        description = "Measures appends to device columns: a copy per batch against the persistent kernel.")
public final class AppendBenchMain implements Callable<Integer> {
    @Option(names = "--min-kib", description = "Smallest batch in KiB (default: ${DEFAULT-VALUE}).")
    private int minKib = 4;

    @Option(names = "--max-mib", description = "Largest batch in MiB (default: ${DEFAULT-VALUE}).")
    private int maxMib = 64;

    @Option(names = "--total-mib", description = "MiB appended per measured run, at least 16 batches (default: ${DEFAULT-VALUE}).")
    private int totalMib = 256;

    @Option(names = "--slots", description = "Ring slots (default: ${DEFAULT-VALUE}).")
    private int slots = 4;

    @Option(names = "--blocks", description = "Blocks of the persistent kernel (default: ${DEFAULT-VALUE}).")
    private int blocks = 32;

    @Option(names = "--runs", description = "Measured runs per cell after one warm-up (default: ${DEFAULT-VALUE}).")
    private int runs = 5;

    public static void main(String[] args) {
        System.exit(new CommandLine(new AppendBenchMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long largest = (long) maxMib << 20;
        try (GpuDevice device = GpuDevice.open(0, 0); Arena arena = Arena.ofShared()) {
            long capacity = Math.max((long) totalMib << 20, 16L * largest);
            MemorySegment source = arena.allocate(capacity, 64);
            for (long i = 0; i < capacity / 8; i++) {
                source.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            }
            System.out.printf("%s; one 64-bit column; %d slots; persistent kernel of %d blocks of 256 threads; "
                    + "median of %d runs; Java %s%n%n", device.describe(), slots, blocks, runs,
                    System.getProperty("java.version"));
            List<List<Object>> rows = new ArrayList<>();
            long crossover = 0;
            for (long batch = (long) minKib << 10; batch <= largest; batch *= 4) {
                long total = Math.max((long) totalMib << 20, 16 * batch);
                long count = total / batch;
                try (DeviceBuffer column = device.memory().allocate(total, "append target")) {
                    List<AppendTarget> targets = List.of(new AppendTarget(column, null, 8));
                    long slotBytes = batch + 64;
                    Supplier<DeviceAppender> copy = () -> new CopyAppender(device, targets, slots, slotBytes);
                    Supplier<DeviceAppender> persistent = () -> new PersistentAppender(device, targets, slots, slotBytes, blocks);
                    double copyStream = streamed(copy, source, batch, count);
                    double persistentStream = streamed(persistent, source, batch, count);
                    double copyAlone = alone(copy, source, batch);
                    double persistentAlone = alone(persistent, source, batch);
                    verify(device, column, source, total);
                    if (persistentStream < copyStream) {
                        crossover = batch;
                    }
                    System.out.printf("  %d KiB batches: copy %.1f us, persistent %.1f us a batch%n", batch >> 10,
                            copyStream * 1e6, persistentStream * 1e6);
                    rows.add(List.of(batch >> 10, count, copyStream * 1e6, batch / copyStream / 1e9,
                            persistentStream * 1e6, batch / persistentStream / 1e9, copyAlone * 1e6,
                            persistentAlone * 1e6, persistentStream < copyStream ? "persistent" : "copy"));
                }
            }
            System.out.print(new QueryResult(List.of(
                    new Field("batch_kib", DataType.BIGINT, false),
                    new Field("batches", DataType.BIGINT, false),
                    new Field("copy_us_per_batch", DataType.DOUBLE, false),
                    new Field("copy_GB/s", DataType.DOUBLE, false),
                    new Field("persistent_us_per_batch", DataType.DOUBLE, false),
                    new Field("persistent_GB/s", DataType.DOUBLE, false),
                    new Field("copy_alone_us", DataType.DOUBLE, false),
                    new Field("persistent_alone_us", DataType.DOUBLE, false),
                    new Field("faster", DataType.VARCHAR, false)), rows).toText());
            System.out.printf("%ncrossover: the persistent kernel is faster up to batches of %d KiB%n", crossover >> 10);
        }
        return 0;
    }

    /** Milliseconds a batch when {@code count} batches follow each other, the kernel's launch included. */
    private double streamed(Supplier<DeviceAppender> make, MemorySegment source, long batch, long count) throws Exception {
        long rows = batch / 8;
        double ms = new WarmTimer(runs).medianMillis(() -> {
            try (DeviceAppender a = make.get()) {
                for (long b = 0; b < count; b++) {
                    long first = b * rows;
                    a.append(first, rows, (c, from, n, values, nulls) ->
                            MemorySegment.copy(source, (first + from) * 8, values, 0, n * 8));
                }
                a.drain();
            }
        });
        return ms / 1e3 / count;
    }

    /** Seconds from handing one batch over to its landing, the appender (and kernel) already running. */
    private double alone(Supplier<DeviceAppender> make, MemorySegment source, long batch) throws Exception {
        long rows = batch / 8;
        try (DeviceAppender a = make.get()) {
            Runnable one = () -> {
                a.append(0, rows, (c, from, n, values, nulls) -> MemorySegment.copy(source, from * 8, values, 0, n * 8));
                a.drain();
            };
            one.run();
            double ms = new WarmTimer(Math.max(runs, 50)).medianMillis(one::run);
            return ms / 1e3;
        }
    }

    /** The column holds what was appended: a wrong byte would make every time above meaningless. */
    private static void verify(GpuDevice device, DeviceBuffer column, MemorySegment source, long total) {
        long piece = 256L << 20;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment back = a.allocate(Math.min(piece, total), 64);
            for (long at = 0; at < total; at += piece) {
                long n = Math.min(piece, total - at);
                column.download(jcuda.Pointer.to(back.asByteBuffer()), at, n);
                long mismatch = back.asSlice(0, n).mismatch(source.asSlice(at, n));
                if (mismatch >= 0) {
                    throw new IllegalStateException("appended column differs from its source at byte " + (at + mismatch));
                }
            }
        }
    }
}

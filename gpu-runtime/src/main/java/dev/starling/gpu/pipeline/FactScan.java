package dev.starling.gpu.pipeline;

import dev.starling.exec.op.ZoneMapPruner;
import dev.starling.exec.plan.Quantities;
import dev.starling.exec.plan.ScanNode;
import dev.starling.gpu.cache.ChunkUploads;
import dev.starling.gpu.cache.DeviceColumn;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuOutOfMemoryException;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A star pipeline's fact rows as its kernel reads them: only the chunks its scan's zone maps may
 * match ({@link ZoneMapPruner}, the rule the CPU's scans skip by), in ranges of consecutive
 * chunks, a launch each; a chunk skipped is neither copied nor read (XeFlow's skipping of pages no
 * query needs). The fact columns reach device memory one of two ways:
 * <ul>
 * <li><b>cached</b>: each leased from the column cache, where it stays; chunks not there yet are
 * copied in range by range on a stream of their own, and the kernel over a range waits only for
 * its range's copies, so the copies of later ranges overlap the kernels of earlier ones (Lutz's
 * thesis, §3.3: chunks over streams, copies overlapping kernels);</li>
 * <li><b>streamed</b>, when the columns do not fit the device memory budget beside the rest of the
 * run: each range passes through one of {@link #SLOTS} device buffers in turn, its copies waiting
 * for the kernel that last read that buffer, and nothing stays. A fact table larger than device
 * memory runs on the GPU this way, its dimensions' state resident.</li>
 * </ul>
 * A scan that must read every row from a whole column (the CPU workers share the chunks, a
 * partitioned join reads the probe column) is cached with every column made whole first.
 */
public final class FactScan implements AutoCloseable {
    /** Device buffers a streamed scan's ranges go through in turn: one copied into while one is read, and one spare. */
    static final int SLOTS = 3;
    /** The most chunks (of 64K rows) one range takes: 4M rows, so that a launch is a small part of a range's time. */
    static final int RANGE_CHUNKS = 64;

    /** Chunks {@code [from, to)}, read by one launch. */
    record Range(int from, int to) {
        long firstRow() {
            return (long) from << Table.CHUNK_SHIFT;
        }
    }

    private final GpuDevice device;
    private final GpuColumnCache cache;
    private final Table fact;
    private final List<Integer> columns;
    private final List<Range> ranges;
    private final boolean streamed;
    private final List<GpuColumnCache.Lease<DeviceColumn>> leases = new ArrayList<>();
    /** A streamed scan's device buffers: per slot, per column, its values and its NULL flags (null: none). */
    private final List<DeviceBuffer[]> slots = new ArrayList<>();
    private final List<StarKernelInput.Column> kernelColumns = new ArrayList<>();
    private final long readBytes;
    private long copiedBytes;
    private long stagedBytes;

    private FactScan(GpuDevice device, GpuColumnCache cache, Table fact, List<Integer> columns, List<Range> ranges,
                     boolean streamed) {
        this.device = device;
        this.cache = cache;
        this.fact = fact;
        this.columns = columns;
        this.ranges = ranges;
        this.streamed = streamed;
        long rows = ranges.stream().mapToLong(r -> rows(fact, r)).sum();
        this.readBytes = columns.stream().mapToLong(c -> rows * rowBytes(fact.column(c))).sum();
    }

    /**
     * The scan of {@code pipeline}'s fact columns: cached where the budget holds them beside
     * {@code reserve} more bytes the run allocates later, else (or where {@code stream}) streamed
     * through buffers of {@code arrays}; {@code whole}: every row, from whole columns (an error when
     * they do not fit).
     */
    static FactScan open(GpuDevice device, GpuColumnCache cache, StarPipeline pipeline, DeviceArrays arrays,
                         long reserve, boolean whole, boolean stream) {
        Table fact = pipeline.fact();
        List<Integer> columns = pipeline.factColumns();
        List<Range> ranges = whole ? ranges(all(fact.chunkCount()), fact.chunkCount()) : ranges(pipeline.factScan());
        long missing = columns.stream().map(fact::column).filter(c -> !cache.isResident(c))
                .mapToLong(c -> fact.rowCount() * rowBytes(c)).sum();
        boolean fits = missing == 0 || device.memory().available(missing + reserve) >= missing + reserve;
        if ((fits && !stream) || whole) {
            FactScan scan = new FactScan(device, cache, fact, columns, ranges, false);
            try {
                scan.leaseColumns(whole);
                return scan;
            } catch (GpuOutOfMemoryException e) {
                scan.close();
                if (whole) {
                    throw e;
                }
            }
        }
        FactScan scan = new FactScan(device, cache, fact, columns, ranges, true);
        try {
            scan.allocateSlots(arrays);
            return scan;
        } catch (RuntimeException e) {
            scan.close();
            throw e;
        }
    }

    /**
     * What the planner says of {@code pipeline}'s scan before it runs: how many chunks its zone maps
     * leave, and, where {@code streams}, that its columns stream through device buffers.
     */
    public static String plan(StarPipeline pipeline, boolean streams) {
        int chunks = pipeline.fact().chunkCount();
        int read = ranges(pipeline.factScan()).stream().mapToInt(r -> r.to() - r.from()).sum();
        String skipped = read < chunks ? String.format("zone maps leave %d of %d chunks", read, chunks) : "";
        String streamed = streams ? "fact columns streamed through device buffers, none kept: they and the run's "
                + "state pass the device memory budget" : "";
        return String.join("; ", java.util.stream.Stream.of(skipped, streamed).filter(t -> !t.isEmpty()).toList());
    }

    /** Device memory a streamed scan of {@code pipeline} takes: its buffers for the longest ranges. */
    public static long streamedBytes(StarPipeline pipeline) {
        Table fact = pipeline.fact();
        long rows = (long) rangeChunks(fact.chunkCount()) << Table.CHUNK_SHIFT;
        return SLOTS * rows * pipeline.factColumns().stream().mapToLong(c -> rowBytes(fact.column(c))).sum();
    }

    /** The chunks {@code scan}'s zone maps may match, in ranges. */
    static List<Range> ranges(ScanNode scan) {
        int chunks = scan.table().chunkCount();
        ZoneMapPruner pruner = new ZoneMapPruner(scan);
        BitSet kept = new BitSet(chunks);
        for (int c = 0; c < chunks; c++) {
            if (pruner.isEmpty() || pruner.mayMatch(scan, c)) {
                kept.set(c);
            }
        }
        return ranges(kept, chunks);
    }

    /**
     * The most chunks a range of a table of {@code chunks} chunks takes: {@link #RANGE_CHUNKS}, or an
     * eighth of the table when that is less, so that copies overlap kernels in smaller tables too.
     */
    static int rangeChunks(int chunks) {
        return Math.max(1, Math.min(RANGE_CHUNKS, (chunks + 7) / 8));
    }

    private static BitSet all(int chunks) {
        BitSet b = new BitSet(chunks);
        b.set(0, chunks);
        return b;
    }

    /** The runs of consecutive chunks of {@code kept}, cut at {@link #rangeChunks}. */
    static List<Range> ranges(BitSet kept, int chunks) {
        int most = rangeChunks(chunks);
        List<Range> out = new ArrayList<>();
        for (int from = kept.nextSetBit(0); from >= 0; ) {
            int end = kept.nextClearBit(from);
            for (int at = from; at < end; at += most) {
                out.add(new Range(at, Math.min(end, at + most)));
            }
            from = kept.nextSetBit(end);
        }
        return out;
    }

    private void leaseColumns(boolean whole) {
        for (int c : columns) {
            GpuColumnCache.Lease<DeviceColumn> lease = whole ? cache.lease(fact, c) : cache.leaseForScan(fact, c);
            leases.add(lease);
            DeviceColumn dc = lease.value();
            kernelColumns.add(new StarKernelInput.Column(dc.values().address(), dc.nulls() == null ? 0 : dc.nulls().address(),
                    dc.width()));
        }
    }

    private void allocateSlots(DeviceArrays arrays) {
        long rows = (long) ranges.stream().mapToInt(r -> r.to() - r.from()).max().orElse(1) << Table.CHUNK_SHIFT;
        for (int s = 0; s < Math.min(SLOTS, Math.max(1, ranges.size())); s++) {
            DeviceBuffer[] slot = new DeviceBuffer[2 * columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                Column column = fact.column(columns.get(i));
                slot[2 * i] = arrays.allocate(rows * column.physical().width, "streamed " + column.name());
                if (hasNulls(column)) {
                    slot[2 * i + 1] = arrays.allocate(rows, "streamed " + column.name() + " NULL flags");
                }
            }
            slots.add(slot);
        }
        for (int i = 0; i < columns.size(); i++) {
            DeviceBuffer[] first = slots.get(0);
            kernelColumns.add(new StarKernelInput.Column(first[2 * i].address(),
                    first[2 * i + 1] == null ? 0 : first[2 * i + 1].address(), fact.column(columns.get(i)).physical().width));
        }
    }

    /** The fact columns as the kernel is compiled for them (their widths, and which have NULL flags). */
    List<StarKernelInput.Column> columns() {
        return kernelColumns;
    }

    /**
     * Queues {@code kernel} over each range in the default stream, after the copies that range
     * needs (queued on a stream of their own), and waits for all of it; the chunks copied into
     * the cache count as there from then on. Over cached columns, consecutive ranges that need no
     * copy run as one launch: a launch per range would add its tail to a resident scan's time.
     */
    void run(StarKernelLauncher.Bound kernel) {
        device.makeCurrent();
        List<BitSet> arrived = new ArrayList<>();
        columns.forEach(c -> arrived.add(new BitSet()));
        GpuStream.Event[] slotRead = new GpuStream.Event[SLOTS];
        try (GpuStream copies = new GpuStream(device); ChunkUploads uploads = cache.uploads(copies)) {
            try {
                Range pending = null;
                for (int i = 0; i < ranges.size(); i++) {
                    Range r = ranges.get(i);
                    if (streamed) {
                        int slot = i % SLOTS;
                        if (slotRead[slot] != null) {
                            copies.awaitEvent(slotRead[slot]);
                            slotRead[slot].close();
                        }
                        copyIntoSlot(uploads, r, slots.get(slot));
                        awaitCopies(uploads, copies);
                        launch(kernel, r, slotColumns(slot, r));
                        slotRead[slot] = GpuStream.recordDefault();
                    } else if (copyIntoCache(uploads, r, arrived)) {
                        pending = launchPending(kernel, pending, null);
                        awaitCopies(uploads, copies);
                        launch(kernel, r, null);
                    } else {
                        pending = pending != null && pending.to() == r.from() ? new Range(pending.from(), r.to())
                                : launchPending(kernel, pending, r);
                    }
                }
                launchPending(kernel, pending, null);
                device.synchronize("star pipeline over fact chunks");
                copies.synchronize("copies of fact chunks");
            } finally {
                for (GpuStream.Event e : slotRead) {
                    if (e != null) {
                        e.close();
                    }
                }
            }
            copiedBytes += uploads.directBytes() + uploads.stagedBytes();
            stagedBytes += uploads.stagedBytes();
        }
        if (!streamed) {
            for (int i = 0; i < columns.size(); i++) {
                cache.arrived(leases.get(i).value(), arrived.get(i));
            }
        }
    }

    /** Launches over {@code pending} (when there is one) and returns {@code next}, the launch pending now. */
    private Range launchPending(StarKernelLauncher.Bound kernel, Range pending, Range next) {
        if (pending != null) {
            launch(kernel, pending, null);
        }
        return next;
    }

    private void launch(StarKernelLauncher.Bound kernel, Range r, List<StarKernelInput.Column> at) {
        kernel.enqueue(r.firstRow(), r.firstRow() + rows(fact, r), null, at);
    }

    /** Sends the copies queued so far and has the default stream wait for them. */
    private static void awaitCopies(ChunkUploads uploads, GpuStream copies) {
        uploads.flush();
        try (GpuStream.Event done = copies.record()) {
            GpuStream.defaultAwaits(done);
        }
    }

    /** Queues the chunks of range {@code r} the cached columns lack; whether it queued any. */
    private boolean copyIntoCache(ChunkUploads uploads, Range r, List<BitSet> arrived) {
        boolean any = false;
        for (int i = 0; i < columns.size(); i++) {
            DeviceColumn dc = leases.get(i).value();
            Column column = fact.column(columns.get(i));
            for (int c = r.from(); c < r.to(); c++) {
                if (!dc.has(c)) {
                    uploads.copyChunk(column, c, dc.values(), dc.nulls(), (long) c << Table.CHUNK_SHIFT);
                    arrived.get(i).set(c);
                    any = true;
                }
            }
        }
        return any;
    }

    /** Queues range {@code r} of every column into {@code slot}. */
    private void copyIntoSlot(ChunkUploads uploads, Range r, DeviceBuffer[] slot) {
        for (int i = 0; i < columns.size(); i++) {
            Column column = fact.column(columns.get(i));
            for (int c = r.from(); c < r.to(); c++) {
                uploads.copyChunk(column, c, slot[2 * i], slot[2 * i + 1], (long) (c - r.from()) << Table.CHUNK_SHIFT);
            }
        }
    }

    /** The columns of {@code slot} as the kernel reads them for range {@code r}: row r.firstRow() at each buffer's start. */
    private List<StarKernelInput.Column> slotColumns(int slot, Range r) {
        DeviceBuffer[] buffers = slots.get(slot);
        List<StarKernelInput.Column> out = new ArrayList<>();
        long first = r.firstRow();
        for (int i = 0; i < columns.size(); i++) {
            int width = kernelColumns.get(i).width();
            DeviceBuffer nulls = buffers[2 * i + 1];
            out.add(new StarKernelInput.Column(buffers[2 * i].address() - first * width,
                    nulls == null ? 0 : nulls.address() - first, width));
        }
        return out;
    }

    /**
     * Fact column {@code i} whole in device memory (its missing chunks copied in first), for a
     * reader of every row (a partitioned join's probe keys); a streamed scan keeps none whole.
     */
    StarKernelInput.Column whole(int i) {
        if (streamed) {
            throw new IllegalStateException("a streamed scan keeps no fact column whole");
        }
        leases.add(cache.lease(fact, columns.get(i)));
        return kernelColumns.get(i);
    }

    /** Whether the scan streams its columns through device buffers rather than keeping them. */
    boolean streamed() {
        return streamed;
    }

    /** Chunks the scan reads, and chunks its zone maps skip. */
    int chunksRead() {
        return ranges.stream().mapToInt(r -> r.to() - r.from()).sum();
    }

    int chunksSkipped() {
        return fact.chunkCount() - chunksRead();
    }

    /** Bytes of fact columns the kernel reads: those of the chunks read. */
    long readBytes() {
        return readBytes;
    }

    /** Bytes its runs copied over the link so far. */
    long copiedBytes() {
        return copiedBytes;
    }

    /** What the scan read and how, for EXPLAIN ANALYZE. */
    String describe() {
        String copied = copiedBytes == 0 ? "nothing copied"
                : Quantities.bytes(copiedBytes) + " copied" + (stagedBytes == 0 ? " from page-locked table memory"
                        : ", " + Quantities.bytes(stagedBytes) + " of it staged");
        return String.format("%d of %d chunks%s, %s, %s", chunksRead(), fact.chunkCount(),
                chunksSkipped() > 0 ? " (zone maps skipped " + chunksSkipped() + ")" : "",
                streamed ? "streamed through device buffers" : "columns cached on the device", copied);
    }

    private static long rows(Table fact, Range r) {
        long end = Math.min(fact.rowCount(), (long) r.to() << Table.CHUNK_SHIFT);
        return end - r.firstRow();
    }

    private static boolean hasNulls(Column column) {
        return column.chunks().stream().anyMatch(c -> c.nulls() != null);
    }

    /** Device bytes a row of {@code column} takes: its value, and a NULL flag when it has any. */
    static long rowBytes(Column column) {
        return column.physical().width + (hasNulls(column) ? 1 : 0);
    }

    @Override
    public void close() {
        leases.forEach(GpuColumnCache.Lease::close);
        leases.clear();
    }
}

package dev.starling.gpu.cache;

import dev.starling.gpu.append.AppendPath;
import dev.starling.gpu.append.AppendTarget;
import dev.starling.gpu.append.DeviceAppender;
import dev.starling.gpu.append.PersistentAppender;
import dev.starling.gpu.cuda.Cuda;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append to a table kept resident, written into device memory as its rows come instead of the
 * new version being uploaded whole by the next query: the new version's device columns start as a
 * device-to-device copy of the current version's, and each batch of appended rows goes to them
 * through {@link AppendPath}'s appender (the persistent kernel for batches below its crossover). When the append
 * commits ({@link #built}) they become the new version's resident columns; an append that fails
 * frees them. Used by one appending thread; a watchdog ends the persistent kernel when no batch has
 * come for {@value #IDLE_MILLIS} ms, or after {@value #RUN_MILLIS} ms of batches, so that it holds up
 * queries waiting for the device at most that long.
 */
public final class ResidentAppend implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResidentAppend.class);
    private static final long IDLE_MILLIS = 2;
    /** The longest one launch of the persistent kernel runs while batches keep coming. */
    private static final long RUN_MILLIS = 50;
    /** Rows of room past the current version to start with: growing copies what is there. */
    private static final long FIRST_ROOM = 1 << 16;
    private static final ScheduledExecutorService IDLE = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "persistent-append-idle");
        t.setDaemon(true);
        return t;
    });

    private final GpuColumnCache cache;
    private final GpuDevice device;
    private final Table base;
    private List<AppendTarget> targets;
    /** Rows the targets hold so far (the base's, then those appended). */
    private long rows;
    private DeviceAppender appender;
    private long lastRows;
    private long runningSince;
    private boolean done;
    /** The appending thread's and the watchdog's turn: the watchdog only tries it, never waits for it. */
    private final ReentrantLock lock = new ReentrantLock();

    private ResidentAppend(GpuColumnCache cache, GpuDevice device, Table base) {
        this.cache = cache;
        this.device = device;
        this.base = base;
        this.rows = base.rowCount();
    }

    /**
     * An append to {@code base} kept on the device, or null when the table is not kept resident or
     * its new columns do not fit beside the current ones (the next query then uploads them).
     */
    public static ResidentAppend begin(GpuColumnCache cache, GpuDevice device, Table base) {
        if (!cache.residentTables().contains(base.name())) {
            return null;
        }
        ResidentAppend a = new ResidentAppend(cache, device, base);
        try {
            a.targets = a.grown(base.rowCount() + Math.max(FIRST_ROOM, base.rowCount() / 8), null);
            return a;
        } catch (RuntimeException e) {
            LOG.info("append to {} not kept on the GPU: {}", base.name(), e.getMessage());
            return null;
        }
    }

    /**
     * Sends the rows {@code builder} holds past those sent so far to the device. A failure here
     * (device memory to grow into, say) only gives the append up: the next query uploads the columns.
     */
    public void rows(TableBuilder builder) {
        lock.lock();
        try {
            long total = builder.rows();
            if (!done && total > rows) {
                send(builder, total);
            }
        } catch (RuntimeException e) {
            giveUp(e);
        } finally {
            lock.unlock();
        }
    }

    private void send(TableBuilder builder, long total) {
        long rowBytes = 0;
        for (AppendTarget t : targets) {
            rowBytes += t.width() + (t.nulls() == null ? 0 : 1);
        }
        if (total > targets.get(0).capacityRows()) {
            closeAppender();
            List<AppendTarget> bigger = grown(Math.max(total, 2 * targets.get(0).capacityRows() - base.rowCount()), targets);
            free(targets);
            targets = bigger;
        }
        if (appender == null) {
            appender = AppendPath.forBatches(device, targets, (total - rows) * rowBytes);
        }
        if (appender instanceof PersistentAppender p && !p.running()) {
            runningSince = System.nanoTime();
        }
        long first = rows;
        appender.append(first, total - first, (c, from, n, values, nulls) -> builder.copyRows(c, first + from, n, values, nulls));
        rows = total;
        lastRows = System.nanoTime();
        if (appender instanceof PersistentAppender) {
            IDLE.schedule(this::pauseIfIdle, IDLE_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Ends the persistent kernel when no batch has come for {@value #IDLE_MILLIS} ms or it has run
     * {@value #RUN_MILLIS} ms (the next batch launches it again). It only tries the append's lock:
     * the one watchdog thread serves every append, and an appending thread may hold its lock while
     * it waits for the device, which another append's kernel holds up until this ends it.
     */
    private void pauseIfIdle() {
        if (!lock.tryLock()) {
            IDLE.schedule(this::pauseIfIdle, IDLE_MILLIS, TimeUnit.MILLISECONDS);
            return;
        }
        try {
            long now = System.nanoTime();
            if (appender instanceof PersistentAppender p && p.running()
                    && (now - lastRows >= TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS)
                    || now - runningSince >= TimeUnit.MILLISECONDS.toNanos(RUN_MILLIS))) {
                p.pause();
            }
        } catch (RuntimeException e) {
            giveUp(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The append's version {@code built} is about to be committed: its columns, all its rows sent,
     * become resident from the device columns written here.
     */
    public void built(Table built) {
        lock.lock();
        try {
            if (done) {
                return;
            }
            closeAppender();
            if (built.rowCount() != rows) {
                throw new IllegalStateException("the device holds " + rows + " rows of " + built.name()
                        + ", its new version " + built.rowCount());
            }
            done = true;
            while (!targets.isEmpty()) {
                int c = base.columns().size() - targets.size();
                AppendTarget t = targets.get(0);
                targets = targets.subList(1, targets.size());
                adopt(built, c, t);
            }
        } catch (RuntimeException e) {
            giveUp(e);
        } finally {
            lock.unlock();
        }
    }

    /** Column {@code c} of {@code built} resident from {@code t}, its NULL flags kept where it has NULLs. */
    private void adopt(Table built, int c, AppendTarget t) {
        boolean hasNulls = built.column(c).chunks().stream().anyMatch(ch -> ch.nulls() != null);
        if (hasNulls && t.nulls() == null) {
            free(List.of(t));
            return;
        }
        DeviceBuffer nulls = t.nulls();
        if (!hasNulls && nulls != null) {
            nulls.close();
            nulls = null;
        }
        DeviceColumn dc = new DeviceColumn(t.values(), nulls, t.width(), rows);
        boolean adopted = false;
        try {
            adopted = cache.adopt(built, c, dc);
        } finally {
            if (!adopted) {
                dc.free();
            }
        }
    }

    /** Logs why, and frees what was written: never throws, so the statement goes on without it. */
    private void giveUp(RuntimeException e) {
        LOG.warn("append to {} not kept on the GPU (the next query uploads its columns): {}", base.name(), e.getMessage());
        try {
            close();
        } catch (RuntimeException again) {
            LOG.warn("freeing the device columns of an append to {} failed: {}", base.name(), again.getMessage());
        }
    }

    /** Frees what was written unless the append was built. */
    @Override
    public void close() {
        lock.lock();
        try {
            done = true;
            closeAppender();
        } finally {
            free(targets);
            targets = List.of();
            lock.unlock();
        }
    }

    private void closeAppender() {
        if (appender != null) {
            DeviceAppender a = appender;
            appender = null;
            a.close();
        }
    }

    /**
     * Device columns with room for {@code capacity} rows holding the first {@link #rows} rows:
     * copied from {@code from}, or from the base version's resident columns when it is null.
     */
    private List<AppendTarget> grown(long capacity, List<AppendTarget> from) {
        List<AppendTarget> made = new ArrayList<>();
        List<GpuColumnCache.Lease<DeviceColumn>> leases = new ArrayList<>();
        try (GpuStream stream = new GpuStream(device)) {
            for (int c = 0; c < base.columns().size(); c++) {
                Column column = base.column(c);
                int width = column.physical().width;
                String what = base.name() + "." + column.name() + " (appended)";
                DeviceBuffer values = device.memory().allocate(capacity * width, what);
                DeviceBuffer nulls = null;
                try {
                    boolean baseNulls = column.chunks().stream().map(ColumnChunk::nulls).anyMatch(n -> n != null);
                    if (baseNulls || column.schema().nullable()) {
                        nulls = device.memory().allocate(capacity, what + " NULL flags");
                    }
                } catch (RuntimeException e) {
                    values.close();
                    throw e;
                }
                AppendTarget t = new AppendTarget(values, nulls, width);
                made.add(t);
                DeviceBuffer sourceValues;
                DeviceBuffer sourceNulls;
                if (from != null) {
                    sourceValues = from.get(c).values();
                    sourceNulls = from.get(c).nulls();
                } else {
                    GpuColumnCache.Lease<DeviceColumn> lease = cache.lease(base, c);
                    leases.add(lease);
                    sourceValues = lease.value().values();
                    sourceNulls = lease.value().nulls();
                }
                copy(values, sourceValues, rows * width, stream);
                if (nulls != null) {
                    if (sourceNulls != null) {
                        copy(nulls, sourceNulls, rows, stream);
                    } else {
                        Cuda.check(JCudaDriver.cuMemsetD8Async(nulls.pointer(), (byte) 0, rows, stream.handle()),
                                "cuMemsetD8Async");
                    }
                }
            }
            stream.synchronize("copying a resident table's columns for an append");
            return made;
        } catch (RuntimeException e) {
            free(made);
            throw e;
        } finally {
            leases.forEach(GpuColumnCache.Lease::close);
        }
    }

    private static void copy(DeviceBuffer to, DeviceBuffer from, long bytes, GpuStream stream) {
        if (bytes > 0) {
            Cuda.check(JCudaDriver.cuMemcpyDtoDAsync(to.pointer(), from.pointer(), bytes, stream.handle()),
                    "cuMemcpyDtoDAsync");
        }
    }

    private static void free(List<AppendTarget> targets) {
        for (AppendTarget t : targets) {
            t.values().close();
            if (t.nulls() != null) {
                t.nulls().close();
            }
        }
    }
}

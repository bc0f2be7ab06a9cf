package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.GpuStream;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.lang.ref.ReferenceQueue;
import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Columns resident in device memory, least recently used first out when an allocation needs room,
 * and data derived from them (clone layouts). A column is whole, or holds the chunks scans copied
 * into it so far ({@link #leaseForScan}); a lease of the column itself makes it whole first.
 * Entries are keyed by the identity of the storage column (a table version's column never
 * changes) and what was derived from it, held weakly: a column dropped or replaced by a newer
 * table version is freed at the next access once the JVM has collected it. A column in use by a
 * running pipeline is leased and never evicted under it. Columns of a table kept resident (by configuration or {@code ALTER TABLE
 * ... SET (gpu_resident = true)}) are never evicted either, in any version of the table, until it
 * is released.
 */
public final class GpuColumnCache implements DeviceMemory.Reclaimer, AutoCloseable {
    private final ColumnUploader uploader;
    private final HostPins pins;
    private final Map<ColumnKey, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final ReferenceQueue<Column> collected = new ReferenceQueue<>();
    private final Set<String> residentTables = new TreeSet<>();
    private long bytes;
    /** Device memory the entries hold: {@link #bytes} rounded up to their blocks. */
    private long heldBytes;

    public GpuColumnCache(GpuDevice device) {
        this.pins = new HostPins(device.registrations());
        this.uploader = new ColumnUploader(device, pins);
        device.memory().setReclaimer(this);
    }

    /** A column (or what was derived from one) held resident until the lease is closed. */
    public final class Lease<T extends DeviceResident> implements AutoCloseable {
        private final Entry entry;
        private final T value;
        private boolean closed;

        private Lease(Entry entry, T value) {
            this.entry = entry;
            this.value = value;
        }

        public T value() {
            return value;
        }

        @Override
        public void close() {
            synchronized (GpuColumnCache.this) {
                if (!closed) {
                    closed = true;
                    entry.leases--;
                }
            }
        }
    }

    private static final class Entry {
        final DeviceResident value;
        final String table;
        /** Data derived from the column (a layout, a predicate's answers): evictable even when the table is resident. */
        final boolean derived;
        int leases;

        Entry(DeviceResident value, String table, boolean derived) {
            this.value = value;
            this.table = table;
            this.derived = derived;
        }
    }

    /** Column {@code c} of {@code table} in device memory, uploaded first (or its missing chunks) when it is not resident. */
    public Lease<DeviceColumn> lease(Table table, int c) {
        Lease<DeviceColumn> lease = leaseForScan(table, c);
        try {
            uploader.complete(table.column(c), lease.value());
            return lease;
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    /**
     * Column {@code c} of {@code table} in device memory, with the chunks copied in so far (none,
     * when it was not resident): a scan copies in those it reads ({@link #uploads}) and says so
     * ({@link #arrived}). Throws {@link dev.starling.gpu.cuda.GpuOutOfMemoryException} when the
     * budget has no room for the whole column.
     */
    public Lease<DeviceColumn> leaseForScan(Table table, int c) {
        return lease(table, c, null, column -> uploader.allocate(column, table.name() + "." + column.name()));
    }

    /** Records that copies, now done, put {@code chunks} of {@code column} on the device. */
    public void arrived(DeviceColumn column, BitSet chunks) {
        column.arrived(chunks);
    }

    /** Uploads of table chunks into device memory on {@code stream}, from host memory page-locked in place where it can be. */
    public ChunkUploads uploads(GpuStream stream) {
        return uploader.uploads(stream);
    }

    /**
     * Data derived from column {@code c} of {@code table} (identified by {@code derived}, which
     * must have value equality), made by {@code make} when it is not resident. It lives, and is
     * evicted, like the column's values, and goes with the column's table version.
     */
    public <T extends DeviceResident> Lease<T> leaseDerived(Table table, int c, Object derived, Function<Column, T> make) {
        return lease(table, c, Objects.requireNonNull(derived), make);
    }

    @SuppressWarnings("unchecked")
    private synchronized <T extends DeviceResident> Lease<T> lease(Table table, int c, Object derived, Function<Column, T> make) {
        purgeCollected();
        Column column = table.column(c);
        Entry e = entries.get(new ColumnKey(column, derived, null));
        if (e == null) {
            e = new Entry(make.apply(column), table.name(), derived != null);
            entries.put(new ColumnKey(column, derived, collected), e);
            bytes += e.value.bytes();
            heldBytes += e.value.heldBytes();
        }
        e.leases++;
        return new Lease<>(e, (T) e.value);
    }

    /**
     * Takes {@code column} as column {@code c} of {@code table}, written on the device by an append
     * ({@link ResidentAppend}) rather than uploaded; false (and {@code column} left to the caller)
     * if the column is already there.
     */
    synchronized boolean adopt(Table table, int c, DeviceColumn column) {
        purgeCollected();
        Column host = table.column(c);
        if (entries.containsKey(new ColumnKey(host, null, null))) {
            return false;
        }
        Entry e = new Entry(column, table.name(), false);
        entries.put(new ColumnKey(host, null, collected), e);
        bytes += column.bytes();
        heldBytes += column.heldBytes();
        return true;
    }

    /**
     * Uploads every column of {@code table} and keeps the table's columns resident from now on;
     * when they do not all fit the device memory budget, nothing is kept and the error says so.
     */
    public synchronized void keepResident(Table table) {
        boolean added = residentTables.add(table.name());
        try {
            for (int c = 0; c < table.columns().size(); c++) {
                lease(table, c).close();
            }
        } catch (RuntimeException e) {
            if (added) {
                residentTables.remove(table.name());
            }
            throw e;
        }
    }

    /**
     * Lets {@code table}'s columns be evicted again, and evicts now those no running pipeline uses;
     * true if it was kept resident.
     */
    public synchronized boolean release(String table) {
        boolean was = residentTables.remove(table);
        purgeCollected();
        Iterator<Entry> it = entries.values().iterator();
        while (it.hasNext()) {
            Entry e = it.next();
            if (e.leases == 0 && e.table.equals(table)) {
                it.remove();
                evict(e);
            }
        }
        return was;
    }

    /** The tables kept resident, by name. */
    public synchronized Set<String> residentTables() {
        return Set.copyOf(residentTables);
    }

    /** Whether all of {@code column} is in device memory. */
    public synchronized boolean isResident(Column column) {
        Entry e = entries.get(new ColumnKey(column, null, null));
        return e != null && ((DeviceColumn) e.value).whole();
    }

    /** Bytes of the data resident now. */
    public synchronized long residentBytes() {
        return bytes;
    }

    /** Device memory the resident data holds (its blocks), which {@link DeviceMemory#used} counts. */
    public synchronized long heldBytes() {
        return heldBytes;
    }

    @Override
    public synchronized long reclaim(long needed) {
        purgeCollected();
        long freed = 0;
        Iterator<Entry> it = entries.values().iterator();
        while (freed < needed && it.hasNext()) {
            Entry e = it.next();
            // a resident table keeps its columns; what queries derived from them (one entry per
            // LIKE pattern asked, say) would otherwise pile up until the budget is full
            if (e.leases == 0 && (e.derived || !residentTables.contains(e.table))) {
                it.remove();
                freed += evict(e);
            }
        }
        return freed;
    }

    /** Frees every column no pipeline is using and no resident table holds. */
    public synchronized void clear() {
        reclaim(Long.MAX_VALUE);
    }

    private void purgeCollected() {
        pins.purgeCollected();
        for (var ref = collected.poll(); ref != null; ref = collected.poll()) {
            Entry e = entries.remove(ref);
            if (e != null) {
                evict(e);
            }
        }
    }

    /** Frees {@code e}'s data; returns the device memory that gave back. */
    private long evict(Entry e) {
        long held = e.value.heldBytes();
        bytes -= e.value.bytes();
        heldBytes -= held;
        e.value.free();
        return held;
    }

    @Override
    public synchronized void close() {
        for (Entry e : entries.values()) {
            e.value.free();
        }
        entries.clear();
        bytes = 0;
        heldBytes = 0;
        uploader.close();
    }
}

package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.DeviceMemory;
import dev.starling.gpu.cuda.GpuDevice;
import dev.starling.storage.Column;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Columns resident in device memory, least recently used first out when an allocation needs room.
 * Entries are keyed by the identity of the storage column (a table version's column never
 * changes), held weakly: a column dropped or replaced by a newer table version is freed at the
 * next access once the JVM has collected it. A column in use by a running pipeline is leased and
 * never evicted under it.
 */
public final class GpuColumnCache implements DeviceMemory.Reclaimer, AutoCloseable {
    private final ColumnUploader uploader;
    private final Map<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final ReferenceQueue<Column> collected = new ReferenceQueue<>();
    private long bytes;

    public GpuColumnCache(GpuDevice device) {
        this.uploader = new ColumnUploader(device);
        device.memory().setReclaimer(this);
    }

    /** A column held resident until the lease is closed. */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean closed;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        public DeviceColumn column() {
            return entry.column;
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
        final DeviceColumn column;
        int leases;

        Entry(DeviceColumn column) {
            this.column = column;
        }
    }

    private static final class Key extends WeakReference<Column> {
        private final int hash;

        Key(Column column, ReferenceQueue<Column> queue) {
            super(column, queue);
            hash = System.identityHashCode(column);
        }

        @Override
        public boolean equals(Object o) {
            return o == this || (o instanceof Key k && k.get() != null && k.get() == get());
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** The column in device memory, uploaded first when it is not resident. */
    public synchronized Lease lease(Column column, String what) {
        purgeCollected();
        Key key = new Key(column, null);
        Entry e = entries.get(key);
        if (e == null) {
            e = new Entry(uploader.upload(column, what));
            entries.put(new Key(column, collected), e);
            bytes += e.column.bytes();
        }
        e.leases++;
        return new Lease(e);
    }

    public synchronized boolean isResident(Column column) {
        return entries.containsKey(new Key(column, null));
    }

    public synchronized long residentBytes() {
        return bytes;
    }

    @Override
    public synchronized long reclaim(long needed) {
        purgeCollected();
        long freed = 0;
        Iterator<Entry> it = entries.values().iterator();
        while (freed < needed && it.hasNext()) {
            Entry e = it.next();
            if (e.leases == 0) {
                it.remove();
                freed += evict(e);
            }
        }
        return freed;
    }

    /** Frees every column no pipeline is using. */
    public synchronized void clear() {
        reclaim(Long.MAX_VALUE);
    }

    private void purgeCollected() {
        for (var ref = collected.poll(); ref != null; ref = collected.poll()) {
            Entry e = entries.remove(ref);
            if (e != null) {
                evict(e);
            }
        }
    }

    private long evict(Entry e) {
        long b = e.column.bytes();
        e.column.free();
        bytes -= b;
        return b;
    }

    @Override
    public synchronized void close() {
        for (Entry e : entries.values()) {
            e.column.free();
        }
        entries.clear();
        bytes = 0;
        uploader.close();
    }
}

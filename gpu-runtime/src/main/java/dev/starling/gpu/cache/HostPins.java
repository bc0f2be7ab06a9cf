package dev.starling.gpu.cache;

import dev.starling.gpu.cuda.HostRegistrations;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import java.lang.foreign.MemorySegment;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Table columns' host memory page-locked in place for copies to the device: a column's chunks
 * (values and NULL flags) are registered on its first copy, whole, in runs of memory that lie end
 * to end (a table file's column is one run; chunks built in memory are one each), and stay so
 * until the column's table version is collected, when they are unregistered before the memory
 * can go.
 */
final class HostPins {
    private final HostRegistrations registrations;
    private final Map<ColumnKey, List<HostRegistrations.Registration>> pinned = new HashMap<>();
    private final ReferenceQueue<Column> collected = new ReferenceQueue<>();

    HostPins(HostRegistrations registrations) {
        this.registrations = registrations;
    }

    /** Page-locks {@code column}'s chunks where they lie, unless that was done before. */
    synchronized void pin(Column column) {
        purgeCollected();
        if (pinned.containsKey(new ColumnKey(column, null, null))) {
            return;
        }
        List<MemorySegment> segments = new ArrayList<>();
        for (ColumnChunk chunk : column.chunks()) {
            segments.add(chunk.values());
            if (chunk.nulls() != null) {
                segments.add(chunk.nulls());
            }
        }
        segments.sort(Comparator.comparingLong(MemorySegment::address));
        List<HostRegistrations.Registration> done = new ArrayList<>();
        for (int i = 0; i < segments.size(); ) {
            long start = segments.get(i).address();
            long end = start + segments.get(i).byteSize();
            int j = i + 1;
            // a run goes on while no whole page lies between its memory and the next segment's
            while (j < segments.size() && segments.get(j).address() <= HostRegistrations.pageAbove(end)) {
                end = Math.max(end, segments.get(j).address() + segments.get(j).byteSize());
                j++;
            }
            done.add(registrations.register(start, end - start, List.copyOf(segments.subList(i, j))));
            i = j;
        }
        pinned.put(new ColumnKey(column, null, collected), done);
    }

    /** Unregisters the memory of columns collected since the last call. */
    synchronized void purgeCollected() {
        for (var ref = collected.poll(); ref != null; ref = collected.poll()) {
            List<HostRegistrations.Registration> gone = pinned.remove(ref);
            if (gone != null) {
                gone.forEach(HostRegistrations.Registration::close);
            }
        }
    }
}

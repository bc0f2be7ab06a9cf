package dev.starling.gpu.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Disjoint ranges of whole host pages, each registered with the driver once: which pages of a new
 * range no range covers yet, and how a copy splits into pieces each inside one range or inside
 * none (a copy that spans two registrations is not one the driver can take as pinned). The
 * bookkeeping of {@link HostRegistrations}, apart from the driver so that it can be tested alone.
 */
final class PageRanges {
    static final long PAGE = 4096;

    /** Start to end of each range. */
    private final TreeMap<Long, Long> ranges = new TreeMap<>();

    static long pageBelow(long address) {
        return address & -PAGE;
    }

    static long pageAbove(long address) {
        return (address + PAGE - 1) & -PAGE;
    }

    /**
     * The parts of the whole pages inside {@code [address, address + bytes)} that no range covers,
     * in order, as start and end: a page that also holds other memory is never registered, since
     * registering it read-only would refuse copies into that other memory.
     */
    List<long[]> gaps(long address, long bytes) {
        long at = pageAbove(address);
        long end = pageBelow(address + bytes);
        List<long[]> out = new ArrayList<>();
        Map.Entry<Long, Long> before = ranges.floorEntry(at);
        if (before != null && before.getValue() > at) {
            at = before.getValue();
        }
        if (at >= end) {
            return out;
        }
        for (Map.Entry<Long, Long> r : ranges.subMap(at, true, end, false).entrySet()) {
            if (r.getKey() > at) {
                out.add(new long[] {at, r.getKey()});
            }
            at = Math.max(at, r.getValue());
        }
        if (at < end) {
            out.add(new long[] {at, end});
        }
        return out;
    }

    /** Records {@code [start, end)}, page aligned and overlapping no range. */
    void add(long start, long end) {
        List<long[]> free = end > start ? gaps(start, end - start) : List.of();
        if (start % PAGE != 0 || end % PAGE != 0 || free.size() != 1 || free.get(0)[0] != start || free.get(0)[1] != end) {
            throw new IllegalArgumentException("not a free range of whole pages: " + start + ".." + end);
        }
        ranges.put(start, end);
    }

    /** Forgets the range starting at {@code start}; returns its end. */
    long remove(long start) {
        Long end = ranges.remove(start);
        if (end == null) {
            throw new IllegalArgumentException("no range starts at " + start);
        }
        return end;
    }

    /** Splits {@code [address, address + bytes)} into maximal pieces each inside one range or inside none. */
    void split(long address, long bytes, HostRegistrations.Piece piece) {
        long at = address;
        long end = address + bytes;
        while (at < end) {
            Map.Entry<Long, Long> r = ranges.floorEntry(at);
            if (r != null && r.getValue() > at) {
                long to = Math.min(end, r.getValue());
                piece.accept(at, to - at, r.getKey());
                at = to;
            } else {
                Long next = ranges.ceilingKey(at);
                long to = next == null ? end : Math.min(end, next);
                piece.accept(at, to - at, HostRegistrations.Piece.NONE);
                at = to;
            }
        }
    }

    /** Bytes the ranges cover. */
    long bytes() {
        return ranges.entrySet().stream().mapToLong(r -> r.getValue() - r.getKey()).sum();
    }
}

package dev.starling.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bookkeeping of host memory registered with the driver: gaps to register, and copies split at registrations. */
class PageRangesTest {
    private static final long P = PageRanges.PAGE;

    @Test
    void onlyTheWholePagesInsideARangeAreGaps() {
        PageRanges pages = new PageRanges();
        assertEquals(List.of("8192..16384"), text(pages.gaps(P + 10, 3 * P)));
        assertEquals(List.of(), text(pages.gaps(P + 10, P)), "no whole page inside");
    }

    @Test
    void onlyThePagesNoRangeCoversAreGaps() {
        PageRanges pages = new PageRanges();
        pages.add(2 * P, 4 * P);
        pages.add(6 * P, 7 * P);
        assertEquals(List.of("0..8192", "16384..24576", "28672..40960"), text(pages.gaps(0, 10 * P)));
        assertEquals(List.of(), text(pages.gaps(2 * P + 1, P)), "inside a range");
        assertEquals(List.of("16384..20480"), text(pages.gaps(3 * P, 2 * P)), "a range's last page is not free");
        assertEquals(4 * P, pages.bytes() + P);
    }

    @Test
    void overlappingOrUnalignedRangesAreRefused() {
        PageRanges pages = new PageRanges();
        pages.add(2 * P, 4 * P);
        assertThrows(IllegalArgumentException.class, () -> pages.add(3 * P, 5 * P));
        assertThrows(IllegalArgumentException.class, () -> pages.add(5 * P + 1, 6 * P));
        assertThrows(IllegalArgumentException.class, () -> pages.add(6 * P, 6 * P));
        assertEquals(4 * P, pages.remove(2 * P));
        pages.add(3 * P, 5 * P);
    }

    @Test
    void aCopySplitsWhereRegistrationsBeginAndEnd() {
        PageRanges pages = new PageRanges();
        pages.add(2 * P, 4 * P);
        pages.add(4 * P, 5 * P);
        List<String> pieces = new ArrayList<>();
        pages.split(P + 100, 5 * P, (address, bytes, range) -> pieces.add(address + "+" + bytes + "@" + range));
        assertEquals(List.of((P + 100) + "+" + (P - 100) + "@-1", 2 * P + "+" + 2 * P + "@" + 2 * P,
                4 * P + "+" + P + "@" + 4 * P, 5 * P + "+" + (P + 100) + "@-1"), pieces);
    }

    private static List<String> text(List<long[]> ranges) {
        return ranges.stream().map(r -> r[0] + ".." + r[1]).toList();
    }
}

package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ranges of chunks a fact scan launches its kernel over: runs of the chunks it reads, cut to a bounded length. */
class FactScanRangesTest {

    @Test
    void runsOfKeptChunksAreCutAtTheRangeLength() {
        BitSet kept = new BitSet();
        kept.set(0, 3);
        kept.set(5, 200);
        kept.set(250);
        assertEquals(List.of(new FactScan.Range(0, 3), new FactScan.Range(5, 69), new FactScan.Range(69, 133),
                new FactScan.Range(133, 197), new FactScan.Range(197, 200), new FactScan.Range(250, 251)),
                FactScan.ranges(kept, 1000));
    }

    @Test
    void aSmallTableGetsEightRangesOrFewer() {
        BitSet all = new BitSet();
        all.set(0, 20);
        assertEquals(List.of(new FactScan.Range(0, 3), new FactScan.Range(3, 6), new FactScan.Range(6, 9),
                new FactScan.Range(9, 12), new FactScan.Range(12, 15), new FactScan.Range(15, 18),
                new FactScan.Range(18, 20)), FactScan.ranges(all, 20));
        assertEquals(List.of(), FactScan.ranges(new BitSet(), 20), "nothing kept, nothing launched");
    }
}

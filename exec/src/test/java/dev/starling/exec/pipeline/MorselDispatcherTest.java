package dev.starling.exec.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class MorselDispatcherTest {

    @Test
    void cpuWorkersTakeOneChunkAndTheAcceleratorAtMostAQuarterOfWhatIsLeft() {
        MorselDispatcher d = new MorselDispatcher(100);
        assertArrayEquals(new int[] {0, 25}, d.claimBatch(64));
        assertEquals(25, d.claim());
        assertArrayEquals(new int[] {26, 34}, d.claimBatch(8));
        assertEquals(34, d.claim());
        assertEquals(33, d.acceleratorChunks());
        for (int c = 35; c < 98; c++) {
            assertEquals(c, d.claim());
        }
        assertArrayEquals(new int[] {98, 99}, d.claimBatch(64), "one chunk when fewer than four are left");
        assertEquals(99, d.claim());
        assertEquals(-1, d.claim());
        assertNull(d.claimBatch(64));
        assertEquals(34, d.acceleratorChunks());
    }

    @Test
    void aClosedDispatcherHandsOutNothing() {
        MorselDispatcher d = new MorselDispatcher(10);
        assertEquals(0, d.claim());
        d.close();
        assertEquals(-1, d.claim());
        assertNull(d.claimBatch(4));
        assertEquals(0, d.acceleratorChunks());
    }
}

package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.gpu.append.AppendTarget;
import dev.starling.gpu.append.CopyAppender;
import dev.starling.gpu.append.DeviceAppender;
import dev.starling.gpu.append.PersistentAppender;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import jcuda.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On the GPU host: rows appended in batches of every size from one row to many slots, to columns of
 * 1, 2, 4 and 8 bytes with and without NULL flags, at row offsets that leave the destinations at
 * every alignment, land exactly as the same rows written at once, whether copied per batch or taken
 * by the persistent kernel (also across a pause, which ends the kernel, and a new launch); device
 * memory goes back to its baseline.
 */
@Tag("gpu")
class GpuDeviceAppendTest {
    private static final int[] WIDTHS = {1, 2, 4, 8};
    private static final long ROWS = 300_007;

    @Test
    void copiedAndPersistentAppendsEqualTheRowsWrittenAtOnce() {
        GpuDevice device = GpuDevices.openOrSkip(0);
        try (device) {
            byte[][] values = new byte[WIDTHS.length][];
            byte[][] nulls = new byte[WIDTHS.length][];
            SplittableRandom random = new SplittableRandom(24);
            for (int c = 0; c < WIDTHS.length; c++) {
                values[c] = new byte[(int) (ROWS * WIDTHS[c])];
                random.nextBytes(values[c]);
                nulls[c] = new byte[(int) ROWS];
                for (int r = 0; r < ROWS; r++) {
                    nulls[c][r] = (byte) (random.nextInt(7) == 0 ? 1 : 0);
                }
            }
            long baseline = device.memory().used();
            List<Function<List<AppendTarget>, DeviceAppender>> appenders = List.of(
                    t -> new CopyAppender(device, t, 3, 64 << 10),
                    t -> new PersistentAppender(device, t, 3, 64 << 10, 8),
                    t -> new PersistentAppender(device, t, 2, 4 << 10, device.multiprocessors()));
            for (var make : appenders) {
                List<AppendTarget> targets = new ArrayList<>();
                try {
                    for (int c = 0; c < WIDTHS.length; c++) {
                        DeviceBuffer v = device.memory().allocate(ROWS * WIDTHS[c], "values " + c);
                        // the even columns keep NULL flags
                        DeviceBuffer n = c % 2 == 0 ? device.memory().allocate(ROWS, "nulls " + c) : null;
                        targets.add(new AppendTarget(v, n, WIDTHS[c]));
                    }
                    String named;
                    try (DeviceAppender a = make.apply(targets)) {
                        named = a.getClass().getSimpleName();
                        long row = 0;
                        int step = 0;
                        // batches of 1, 2, 3, ... rows, then growing past a slot, then one to the end
                        while (row < ROWS) {
                            long n = step < 40 ? step + 1 : Math.min(ROWS - row, (long) step * step * 7);
                            n = Math.min(n, ROWS - row);
                            long first = row;
                            a.append(first, n, (c, from, count, vs, ns) -> {
                                int w = WIDTHS[c];
                                MemorySegment.copy(MemorySegment.ofArray(values[c]), (first + from) * w, vs, 0, count * w);
                                if (ns != null) {
                                    MemorySegment.copy(MemorySegment.ofArray(nulls[c]), first + from, ns, 0, count);
                                }
                            });
                            if (a instanceof PersistentAppender p && step == 45) {
                                p.pause();
                                assertFalse(p.running(), "a paused kernel has ended");
                            }
                            row += n;
                            step++;
                        }
                        a.drain();
                        assertTrue(a.batches() > 60, named + " carried the rows in many batches: " + a.batches());
                    }
                    for (int c = 0; c < WIDTHS.length; c++) {
                        AppendTarget t = targets.get(c);
                        assertArrayEquals(values[c], download(t.values(), ROWS * WIDTHS[c]), named + ": values of column " + c);
                        if (t.nulls() != null) {
                            assertArrayEquals(nulls[c], download(t.nulls(), ROWS), named + ": NULL flags of column " + c);
                        }
                    }
                } finally {
                    for (AppendTarget t : targets) {
                        t.values().close();
                        if (t.nulls() != null) {
                            t.nulls().close();
                        }
                    }
                }
                assertEquals(baseline, device.memory().used(), "device memory back to its baseline");
            }
        }
    }

    @Test
    void rowsPastATargetAreRefusedBeforeAnythingMoves() {
        GpuDevice device = GpuDevices.openOrSkip(0);
        try (device; DeviceBuffer column = device.memory().allocate(800, "column");
             DeviceAppender a = new PersistentAppender(device, List.of(new AppendTarget(column, null, 8)), 2, 4096, 1)) {
            assertThrows(IllegalArgumentException.class, () -> a.append(90, 20, (c, from, n, v, ns) -> { }));
            assertEquals(0, a.batches());
        }
    }

    private static byte[] download(DeviceBuffer b, long bytes) {
        byte[] out = new byte[Math.toIntExact(bytes)];
        b.download(Pointer.to(out), bytes);
        return out;
    }
}

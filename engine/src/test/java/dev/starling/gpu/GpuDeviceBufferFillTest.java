package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.gpu.cuda.DeviceBuffer;
import jcuda.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * On the GPU host: filling a device buffer with a word sets every word, whatever the halves of an
 * 8-byte word (equal: one 32-bit memset; different, as the identities of MIN and MAX: the first
 * word copied after itself), for buffers of no word, one word, an odd count and millions, with
 * bytes past the last word or without; and 4-byte words.
 */
@Tag("gpu")
class GpuDeviceBufferFillTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    /** {@code tail}: bytes past the last whole word, which the fill need not set. */
    @ParameterizedTest
    @CsvSource({"9223372036854775807, 1, 0", "-9223372036854775808, 1000003, 4", "0, 77, 4", "-1, 4194304, 0",
        "81985529216486895, 5, 7", "5, 0, 4"})
    void everyWordTakesTheValue(long value, int words, int tail) {
        long baseline = ENGINE.gpu().device().memory().used();
        try (DeviceBuffer b = ENGINE.gpu().device().memory().allocate(words * 8L + tail, "filled words")) {
            b.fill(value, 8);
            long[] back = new long[words];
            b.download(Pointer.to(back), words * 8L);
            for (int w = 0; w < words; w++) {
                assertEquals(value, back[w], "word " + w + " of " + words);
            }
        }
        assertEquals(baseline, ENGINE.gpu().device().memory().used());
    }

    @ParameterizedTest
    @CsvSource({"2147483647, 3", "-2147483648, 1000001"})
    void everyFourByteWordTakesTheValue(int value, int words) {
        try (DeviceBuffer b = ENGINE.gpu().device().memory().allocate(words * 4L, "filled words")) {
            b.fill(value, 4);
            int[] back = new int[words];
            b.download(Pointer.to(back), words * 4L);
            for (int w = 0; w < words; w++) {
                assertEquals(value, back[w], "word " + w + " of " + words);
            }
        }
    }
}

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
 * word copied after itself), for buffers of one word, of an odd count and of millions.
 */
@Tag("gpu")
class GpuDeviceBufferFillTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @ParameterizedTest
    @CsvSource({"9223372036854775807, 1", "-9223372036854775808, 1000003", "0, 77", "-1, 4194304", "81985529216486895, 5"})
    void everyWordTakesTheValue(long value, int words) {
        long baseline = ENGINE.gpu().device().memory().used();
        try (DeviceBuffer b = ENGINE.gpu().device().memory().allocate(words * 8L, "filled words")) {
            b.fill(value, 8);
            long[] back = new long[words];
            b.download(Pointer.to(back), words * 8L);
            for (int w = 0; w < words; w++) {
                assertEquals(value, back[w], "word " + w + " of " + words);
            }
        }
        assertEquals(baseline, ENGINE.gpu().device().memory().used());
    }
}

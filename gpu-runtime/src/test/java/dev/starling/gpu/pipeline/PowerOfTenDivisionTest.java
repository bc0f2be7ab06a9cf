package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The kernels' division by 10^k agrees with exact unsigned division for every k and awkward dividends. */
class PowerOfTenDivisionTest {

    @Test
    void multiplyHighDivisionIsExact() {
        SplittableRandom random = new SplittableRandom(42);
        for (int k = 1; k <= 18; k++) {
            PowerOfTenDivision div = PowerOfTenDivision.of(k);
            long d = div.divisor();
            long[] edges = {0, 1, d - 1, d, d + 1, 2 * d - 1, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -d, Long.MIN_VALUE + 1};
            for (long n : edges) {
                assertEquals(Long.divideUnsigned(n, d), div.divideUnsigned(n), "10^" + k + " of " + Long.toUnsignedString(n));
            }
            for (int i = 0; i < 200_000; i++) {
                long n = random.nextLong() >>> random.nextInt(64);
                assertEquals(Long.divideUnsigned(n, d), div.divideUnsigned(n), "10^" + k + " of " + Long.toUnsignedString(n));
            }
        }
    }
}

package dev.starling.storage.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.starling.storage.DataType;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class FieldValuesTest {

    /** Parses {@code s} from the middle of a larger array, as fields are parsed. */
    private static long decimal(String s, int precision, int scale) {
        char[] t = ("|" + s + "|").toCharArray();
        return FieldValues.decimal(t, 1, t.length - 1, DataType.decimal(precision, scale));
    }

    private static String decimalError(String s, int precision, int scale) {
        return assertThrows(BadValueException.class, () -> decimal(s, precision, scale)).getMessage();
    }

    private static long integer(String s, DataType type) {
        char[] t = ("|" + s + "|").toCharArray();
        long min = type == DataType.INTEGER ? Integer.MIN_VALUE : Long.MIN_VALUE;
        long max = type == DataType.INTEGER ? Integer.MAX_VALUE : Long.MAX_VALUE;
        return FieldValues.integer(t, 1, t.length - 1, min, max, type);
    }

    private static String integerError(String s, DataType type) {
        return assertThrows(BadValueException.class, () -> integer(s, type)).getMessage();
    }

    private static long date(String s) {
        char[] t = ("|" + s + "|").toCharArray();
        return FieldValues.date(t, 1, t.length - 1);
    }

    private static boolean bool(String s) {
        char[] t = ("|" + s + "|").toCharArray();
        return FieldValues.bool(t, 1, t.length - 1);
    }

    private static double doubleValue(String s) {
        char[] t = ("|" + s + "|").toCharArray();
        return FieldValues.doubleValue(t, 1, t.length - 1);
    }

    @Test
    void decimalsAreScaledExactly() {
        assertEquals(150, decimal("1.5", 15, 2));
        assertEquals(-1, decimal("-0.01", 15, 2));
        assertEquals(300, decimal("+3", 15, 2));
        assertEquals(50, decimal(".5", 15, 2));
        assertEquals(500, decimal("5.", 15, 2));
        assertEquals(710, decimal("007.10", 15, 2));
        assertEquals(1250, decimal(" 12.5\t", 15, 2));
        assertEquals(150, decimal("1.500", 15, 2), "zeros beyond the scale lose nothing");
        assertEquals(999_999_999_999_999L, decimal("9999999999999.99", 15, 2));
        assertEquals(999_999_999_999_999_999L, decimal("999999999999999999", 18, 0));
        assertEquals(-999_999_999_999_999_999L, decimal("-0.999999999999999999", 18, 18));
        assertEquals(99, decimal("0.99", 2, 2));
        assertEquals(0, decimal("-0", 5, 0));
        // a double round trip would turn this into ...0.0299999
        assertEquals(90071992547409_93L, decimal("90071992547409.93", 16, 2));
    }

    @Test
    void decimalsThatDoNotFitAreRejected() {
        assertEquals("a field of 5 characters has more than 2 decimal places, the scale of DECIMAL(15,2)", decimalError("1.505", 15, 2));
        assertEquals("a field of 14 characters is out of range for DECIMAL(15,2)", decimalError("10000000000000", 15, 2));
        assertEquals("a field of 3 characters is out of range for DECIMAL(2,2)", decimalError("1.0", 2, 2));
        for (String bad : new String[] {"", "-", ".", "abc", "1e3", "1.2.3", "1,5", "--1", "1 2"}) {
            assertEquals(field(bad) + " is not a DECIMAL(15,2)", decimalError(bad, 15, 2));
        }
    }

    @Test
    void integersAreRangeChecked() {
        assertEquals(Integer.MIN_VALUE, integer("-2147483648", DataType.INTEGER));
        assertEquals(Integer.MAX_VALUE, integer("+2147483647", DataType.INTEGER));
        assertEquals(Long.MAX_VALUE, integer("9223372036854775807", DataType.BIGINT));
        assertEquals(Long.MIN_VALUE, integer("-9223372036854775808", DataType.BIGINT));
        assertEquals(42, integer(" 042 ", DataType.BIGINT));
        assertEquals("a field of 10 characters is out of range for INTEGER", integerError("2147483648", DataType.INTEGER));
        assertEquals("a field of 19 characters is out of range for BIGINT", integerError("9223372036854775808", DataType.BIGINT));
        assertEquals("a field of 21 characters is out of range for BIGINT", integerError("-99999999999999999999", DataType.BIGINT));
        assertEquals("a field of 3 characters is not an INTEGER", integerError("12a", DataType.INTEGER));
        assertEquals("a field of 3 characters is not a BIGINT", integerError("1.0", DataType.BIGINT));
        assertEquals("a field of 1 character is not an INTEGER", integerError("-", DataType.INTEGER));
    }

    @Test
    void datesAreIsoDays() {
        assertEquals(0, date("1970-01-01"));
        assertEquals(LocalDate.of(1992, 2, 29).toEpochDay(), date("1992-02-29"));
        assertEquals(LocalDate.of(1998, 12, 1).toEpochDay(), date(" 1998-12-01 "));
        assertEquals("a field of 10 characters is not a valid date",
                assertThrows(BadValueException.class, () -> date("1993-02-29")).getMessage());
        for (String bad : new String[] {"1993-2-01", "19930201", "abcd-ef-gh", "", "1993-02-01x"}) {
            assertEquals(field(bad) + " is not a DATE (yyyy-MM-dd)",
                    assertThrows(BadValueException.class, () -> date(bad)).getMessage());
        }
    }

    @Test
    void booleansHaveSeveralSpellings() {
        for (String t : new String[] {"true", "TRUE", "t", "T", "1"}) {
            assertEquals(true, bool(t), t);
        }
        for (String f : new String[] {"false", "False", "f", "F", "0"}) {
            assertEquals(false, bool(f), f);
        }
        assertEquals("a field of 3 characters is not a BOOLEAN", assertThrows(BadValueException.class, () -> bool("yes")).getMessage());
    }

    @Test
    void doublesAreDecimalNumbers() {
        assertEquals(1.5, doubleValue("1.5"));
        assertEquals(-1e-3, doubleValue("-1e-3"));
        assertEquals(Double.NaN, doubleValue("NaN"));
        assertEquals(Double.NEGATIVE_INFINITY, doubleValue("-Infinity"));
        for (String bad : new String[] {"0x1p3", "1d", "1.5f", "abc", "", "1e"}) {
            assertEquals(field(bad) + " is not a DOUBLE",
                    assertThrows(BadValueException.class, () -> doubleValue(bad)).getMessage());
        }
    }

    /** How an error names a field of text {@code text}: by its length, never its contents. */
    private static String field(String text) {
        int length = text.codePointCount(0, text.length());
        return "a field of " + length + (length == 1 ? " character" : " characters");
    }
}

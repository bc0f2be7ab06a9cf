package dev.starling.storage.load;

import dev.starling.storage.DataType;
import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * Parses field text into stored values straight from the char array, without a String per field.
 * Spaces and tabs around a number, date or boolean are ignored. Every method throws
 * {@link BadValueException} naming the text and the type it is not.
 */
final class FieldValues {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private FieldValues() { }

    /** A decimal integer in {@code [min, max]}, with an optional sign. */
    static long integer(char[] t, int start, int end, long min, long max, DataType type) {
        int s = skipBlanks(t, start, end);
        int e = trimBlanks(t, s, end);
        int i = s;
        boolean negative = i < e && t[i] == '-';
        if (i < e && (t[i] == '-' || t[i] == '+')) {
            i++;
        }
        if (i == e) {
            throw notA(t, start, end, type);
        }
        // accumulate negatively, as Long.parseLong does, so Long.MIN_VALUE parses
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long result = 0;
        for (; i < e; i++) {
            int d = t[i] - '0';
            if (d < 0 || d > 9) {
                throw notA(t, start, end, type);
            }
            if (result < limit / 10 || result * 10 < limit + d) {
                throw outOfRange(t, start, end, type);
            }
            result = result * 10 - d;
        }
        long value = negative ? result : -result;
        if (value < min || value > max) {
            throw outOfRange(t, start, end, type);
        }
        return value;
    }

    /**
     * A DECIMAL(p,s) as its value times 10^s, exactly (no floating point on the way). Fraction
     * digits beyond the scale are accepted only when they are zeros ({@code 1.50} into
     * DECIMAL(15,1)): a value that would lose non-zero digits is rejected, never rounded. More
     * than {@code p - s} integer digits are out of range.
     */
    static long decimal(char[] t, int start, int end, DataType type) {
        int s = skipBlanks(t, start, end);
        int e = trimBlanks(t, s, end);
        int scale = type.scale();
        int maxIntegerDigits = type.precision() - scale;
        int i = s;
        boolean negative = i < e && t[i] == '-';
        if (i < e && (t[i] == '-' || t[i] == '+')) {
            i++;
        }
        long value = 0;
        int integerDigits = 0;
        boolean anyDigit = false;
        for (; i < e && isDigit(t[i]); i++) {
            anyDigit = true;
            int d = t[i] - '0';
            if (value == 0 && d == 0) {
                continue; // leading zero
            }
            if (++integerDigits > maxIntegerDigits) {
                throw outOfRange(t, start, end, type);
            }
            value = value * 10 + d;
        }
        int fractionDigits = 0;
        if (i < e && t[i] == '.') {
            for (i++; i < e && isDigit(t[i]); i++) {
                anyDigit = true;
                int d = t[i] - '0';
                if (fractionDigits < scale) {
                    value = value * 10 + d;
                    fractionDigits++;
                } else if (d != 0) {
                    throw new BadValueException(described(t, start, end) + " has more than " + scale
                            + " decimal places, the scale of " + type);
                }
            }
        }
        if (i != e || !anyDigit) {
            throw notA(t, start, end, type);
        }
        value *= POWERS_OF_TEN[scale - fractionDigits];
        return negative ? -value : value;
    }

    /** A decimal floating-point number, or NaN, Infinity, -Infinity. */
    static double doubleValue(char[] t, int start, int end) {
        int s = skipBlanks(t, start, end);
        int e = trimBlanks(t, s, end);
        // Double.parseDouble also takes hex floats and 'd'/'f' suffixes, which are no SQL numbers
        boolean named = equalsIgnoreCase(t, s, e, "NaN") || equalsIgnoreCase(t, s, e, "Infinity")
                || equalsIgnoreCase(t, s, e, "-Infinity") || equalsIgnoreCase(t, s, e, "+Infinity");
        for (int i = s; i < e && !named; i++) {
            char c = t[i];
            if (!isDigit(c) && c != '.' && c != 'e' && c != 'E' && c != '-' && c != '+') {
                throw notA(t, start, end, DataType.DOUBLE);
            }
        }
        try {
            return Double.parseDouble(new String(t, s, e - s));
        } catch (NumberFormatException ex) {
            throw notA(t, start, end, DataType.DOUBLE);
        }
    }

    /** {@code yyyy-MM-dd} as days since 1970-01-01. */
    static long date(char[] t, int start, int end) {
        int s = skipBlanks(t, start, end);
        int e = trimBlanks(t, s, end);
        if (e - s != 10 || t[s + 4] != '-' || t[s + 7] != '-') {
            throw new BadValueException(described(t, start, end) + " is not a DATE (yyyy-MM-dd)");
        }
        int year = digits(t, s, s + 4);
        int month = digits(t, s + 5, s + 7);
        int day = digits(t, s + 8, s + 10);
        if (year < 0 || month < 0 || day < 0) {
            throw new BadValueException(described(t, start, end) + " is not a DATE (yyyy-MM-dd)");
        }
        try {
            return LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException ex) {
            throw new BadValueException(described(t, start, end) + " is not a valid date");
        }
    }

    /** true/false, t/f or 1/0, in any case. */
    static boolean bool(char[] t, int start, int end) {
        int s = skipBlanks(t, start, end);
        int e = trimBlanks(t, s, end);
        if (equalsIgnoreCase(t, s, e, "true") || equalsIgnoreCase(t, s, e, "t") || equalsIgnoreCase(t, s, e, "1")) {
            return true;
        }
        if (equalsIgnoreCase(t, s, e, "false") || equalsIgnoreCase(t, s, e, "f") || equalsIgnoreCase(t, s, e, "0")) {
            return false;
        }
        throw notA(t, start, end, DataType.BOOLEAN);
    }

    /** The non-negative number the digits spell, or -1 if one is not a digit. */
    private static int digits(char[] t, int start, int end) {
        int v = 0;
        for (int i = start; i < end; i++) {
            if (!isDigit(t[i])) {
                return -1;
            }
            v = v * 10 + (t[i] - '0');
        }
        return v;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    private static int skipBlanks(char[] t, int start, int end) {
        while (start < end && isBlank(t[start])) {
            start++;
        }
        return start;
    }

    private static int trimBlanks(char[] t, int start, int end) {
        while (end > start && isBlank(t[end - 1])) {
            end--;
        }
        return end;
    }

    private static boolean equalsIgnoreCase(char[] t, int start, int end, String word) {
        if (end - start != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (Character.toLowerCase(t[start + i]) != Character.toLowerCase(word.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static BadValueException notA(char[] t, int start, int end, DataType type) {
        String name = type.toString();
        String article = "AEIOU".indexOf(name.charAt(0)) >= 0 ? "an " : "a ";
        return new BadValueException(described(t, start, end) + " is not " + article + name);
    }

    private static BadValueException outOfRange(char[] t, int start, int end, DataType type) {
        return new BadValueException(described(t, start, end) + " is out of range for " + type);
    }

    /** The field, not its text: a loaded file's contents stay out of error messages. */
    private static String described(char[] t, int start, int end) {
        int length = Character.codePointCount(t, start, end - start);
        return "a field of " + length + (length == 1 ? " character" : " characters");
    }
}

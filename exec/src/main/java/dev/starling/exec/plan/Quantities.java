package dev.starling.exec.plan;

import java.util.Locale;

/** Row counts and byte sizes as EXPLAIN writes them: three significant figures with a unit. */
public final class Quantities {
    private static final String[] COUNT_UNITS = {"", "K", "M", "G", "T"};
    private static final String[] BYTE_UNITS = {" B", " KB", " MB", " GB", " TB"};

    private Quantities() {
    }

    /** {@code n} rows or groups: 950, 12.3K, 1.50M. */
    public static String count(double n) {
        return scaled(n, COUNT_UNITS);
    }

    /** {@code n} bytes in decimal units: 512 B, 1.20 MB, 57.0 GB. */
    public static String bytes(double n) {
        return scaled(n, BYTE_UNITS);
    }

    private static String scaled(double n, String[] units) {
        int unit = 0;
        double v = Math.max(0, n);
        while (v >= 999.5 && unit < units.length - 1) {
            v /= 1000;
            unit++;
        }
        if (unit == 0) {
            return Math.round(v) + units[0];
        }
        String digits = v >= 99.5 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, digits, v) + units[unit];
    }
}

package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;

/**
 * EXTRACT YEAR/QUARTER/MONTH/DAY and DATE_ADD_DAYS/MONTHS on days since 1970-01-01, with the civil
 * calendar conversions done arithmetically (no date objects per row).
 */
final class DateEval extends VecExpr {
    private final Call.Op op;
    private final VecExpr date;
    private final VecExpr amount;
    private final DataType type;

    DateEval(Call.Op op, VecExpr date, VecExpr amount, DataType type) {
        this.op = op;
        this.date = date;
        this.amount = amount;
        this.type = type;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector d = date.eval(batch);
        Vector a = amount == null ? null : amount.eval(batch);
        boolean[] nulls = a == null ? d.nulls() : Numbers.orNulls(d.nulls(), a.nulls(), n);
        long[] days = d.longs();
        long[] out = new long[n];
        switch (op) {
            case EXTRACT_YEAR -> { for (int i = 0; i < n; i++) { out[i] = civil(days[i]) >> 9; } }
            case EXTRACT_MONTH -> { for (int i = 0; i < n; i++) { out[i] = (civil(days[i]) >> 5) & 15; } }
            case EXTRACT_QUARTER -> { for (int i = 0; i < n; i++) { out[i] = (((civil(days[i]) >> 5) & 15) + 2) / 3; } }
            case EXTRACT_DAY -> { for (int i = 0; i < n; i++) { out[i] = civil(days[i]) & 31; } }
            case DATE_ADD_DAYS -> {
                long[] x = a.longs();
                for (int i = 0; i < n; i++) {
                    out[i] = days[i] + x[i];
                }
            }
            case DATE_ADD_MONTHS -> {
                long[] x = a.longs();
                for (int i = 0; i < n; i++) {
                    out[i] = addMonths(days[i], x[i]);
                }
            }
            default -> throw new IllegalStateException(op + " is not a date function");
        }
        return Vector.ofLongs(type, out, nulls);
    }

    /** Packs (year << 9) | (month << 5) | day for a day number (Hinnant's civil_from_days). */
    static long civil(long epochDay) {
        long z = epochDay + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        return (year << 9) | (month << 5) | day;
    }

    static long epochDay(long year, long month, long day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    static long addMonths(long epochDay, long months) {
        long c = civil(epochDay);
        long total = (c >> 9) * 12 + ((c >> 5) & 15) - 1 + months;
        long year = Math.floorDiv(total, 12);
        long month = Math.floorMod(total, 12) + 1;
        long day = Math.min(c & 31, monthLength(year, month));
        return epochDay(year, month, day);
    }

    private static long monthLength(long year, long month) {
        return switch ((int) month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }
}

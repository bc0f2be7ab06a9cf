package dev.starling.storage.gen;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * SSB's date dimension, one row per day of 1992 to 1998, keyed by the date as a yyyymmdd integer.
 * The table is named {@code dwdate} (as in Amazon Redshift's SSB tutorial) because the spec's name,
 * DATE, is a reserved word in SQL.
 */
final class SsbDates implements ParallelTableWriter.PartGenerator<SsbDates.Day> {
    static final LocalDate FIRST = LocalDate.of(1992, 1, 1);
    static final LocalDate LAST = LocalDate.of(1998, 12, 31);
    static final int DAYS = (int) (LAST.toEpochDay() - FIRST.toEpochDay() + 1);

    record Day(LocalDate date) {
        int key() {
            return dateKey(date);
        }

        String text() {
            return month() + " " + date.getDayOfMonth() + ", " + date.getYear();
        }

        String dayOfWeek() {
            return date.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
        }

        String month() {
            return date.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
        }

        int yearMonthNumber() {
            return date.getYear() * 100 + date.getMonthValue();
        }

        String yearMonth() {
            return date.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH) + date.getYear();
        }

        /** 1 for Sunday to 7 for Saturday, as in ssb-dbgen. */
        int dayNumberInWeek() {
            return date.getDayOfWeek().getValue() % 7 + 1;
        }

        /** Week 1 is January 1 to 7. */
        int weekNumberInYear() {
            return (date.getDayOfYear() - 1) / 7 + 1;
        }

        String sellingSeason() {
            return switch (date.getMonthValue()) {
                case 1, 2 -> "Winter";
                case 3, 4, 5 -> "Spring";
                case 6, 7, 8 -> "Summer";
                case 9, 10 -> "Fall";
                default -> "Christmas";
            };
        }

        int lastDayInWeek() {
            return flag(date.getDayOfWeek() == DayOfWeek.SATURDAY);
        }

        int lastDayInMonth() {
            return flag(date.getDayOfMonth() == date.lengthOfMonth());
        }

        /** The fixed-date holidays: New Year's Day, Independence Day, Veterans Day and Christmas Day. */
        int holiday() {
            int md = date.getMonthValue() * 100 + date.getDayOfMonth();
            return flag(md == 101 || md == 704 || md == 1111 || md == 1225);
        }

        int weekday() {
            DayOfWeek d = date.getDayOfWeek();
            return flag(d != DayOfWeek.SATURDAY && d != DayOfWeek.SUNDAY);
        }

        private static int flag(boolean b) {
            return b ? 1 : 0;
        }
    }

    static final TableDefinition<Day> DEFINITION = TableDefinition.<Day>named("dwdate")
            .integer("d_datekey", Day::key)
            .varchar("d_date", 18, Day::text)
            .varchar("d_dayofweek", 9, Day::dayOfWeek)
            .varchar("d_month", 9, Day::month)
            .integer("d_year", d -> d.date().getYear())
            .integer("d_yearmonthnum", Day::yearMonthNumber)
            .varchar("d_yearmonth", 7, Day::yearMonth)
            .integer("d_daynuminweek", Day::dayNumberInWeek)
            .integer("d_daynuminmonth", d -> d.date().getDayOfMonth())
            .integer("d_daynuminyear", d -> d.date().getDayOfYear())
            .integer("d_monthnuminyear", d -> d.date().getMonthValue())
            .integer("d_weeknuminyear", Day::weekNumberInYear)
            .varchar("d_sellingseason", 12, Day::sellingSeason)
            .integer("d_lastdayinweekfl", Day::lastDayInWeek)
            .integer("d_lastdayinmonthfl", Day::lastDayInMonth)
            .integer("d_holidayfl", Day::holiday)
            .integer("d_weekdayfl", Day::weekday)
            .primaryKey("d_datekey")
            .build();

    /** The yyyymmdd integer that keys a date. */
    static int dateKey(LocalDate date) {
        return date.getYear() * 10_000 + date.getMonthValue() * 100 + date.getDayOfMonth();
    }

    @Override
    public void generate(int part, int parts, Consumer<Day> sink) {
        for (long i = (long) DAYS * part / parts, end = (long) DAYS * (part + 1) / parts; i < end; i++) {
            sink.accept(new Day(FIRST.plusDays(i)));
        }
    }
}

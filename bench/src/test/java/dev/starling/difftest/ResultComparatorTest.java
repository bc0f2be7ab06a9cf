package dev.starling.difftest;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers compare as multisets or in ORDER BY order, with ties, limits, exact decimals and tolerant doubles. */
class ResultComparatorTest {
    private static final List<String> COLUMNS = List.of("k", "v");

    private static ResultRows rows(Object[]... rows) {
        return new ResultRows(COLUMNS, Arrays.stream(rows)
                .map(r -> Arrays.asList(Arrays.stream(r).map(Values::normalize).toArray())).toList());
    }

    private static Object[] row(Object... values) {
        return values;
    }

    private static String diff(String sql, ResultRows expected, ResultRows actual) {
        return ResultComparator.difference("DuckDB", expected, "Starling", actual, RowOrder.of(sql, COLUMNS));
    }

    private static final String UNORDERED = "select k, v from t";

    @Test
    void rowsWithoutOrderByAreAMultiset() {
        assertNull(diff(UNORDERED, rows(row(1, "a"), row(2, "b"), row(2, "b")), rows(row(2, "b"), row(1, "a"), row(2, "b"))));
        String d = diff(UNORDERED, rows(row(1, "a"), row(2, "b"), row(2, "b")), rows(row(2, "b"), row(1, "a"), row(1, "a")));
        assertNotNull(d);
        assertTrue(d.contains("first difference at row 1\n"), d);
        assertTrue(d.contains("DuckDB rows 1..:\n  [2, 'b']\n  [2, 'b']\nStarling rows 1..:\n  [1, 'a']\n  [2, 'b']\n"), d);
    }

    @Test
    void integerWidthsAndDecimalScalesCompareByValue() {
        assertNull(diff(UNORDERED, rows(row(BigInteger.valueOf(5), new BigDecimal("1.50"))),
                rows(row(5L, new BigDecimal("1.5")))));
        assertNotNull(diff(UNORDERED, rows(row(5, new BigDecimal("1.50"))), rows(row(5, new BigDecimal("1.51")))));
    }

    @Test
    void decimalsAreExactButDoublesHaveARelativeTolerance() {
        assertNotNull(diff(UNORDERED, rows(row(1, new BigDecimal("1000000000.01"))),
                rows(row(1, new BigDecimal("1000000000.02")))));
        assertNull(diff(UNORDERED, rows(row(1, 1e12)), rows(row(1, 1e12 + 100))));
        assertNotNull(diff(UNORDERED, rows(row(1, 1e12)), rows(row(1, 1e12 + 10_000))));
        assertNull(diff(UNORDERED, rows(row(1, 0.0)), rows(row(1, 1e-12))));
        assertNull(diff(UNORDERED, rows(row(1, 2.5)), rows(row(1, new BigDecimal("2.5000000000001")))));
        assertNotNull(diff(UNORDERED, rows(row(1, 2.5)), rows(row(1, new BigDecimal("2.51")))));
    }

    @Test
    void nullEmptyStringAndTypesStayApart() {
        assertNotNull(diff(UNORDERED, rows(row(1, null)), rows(row(1, ""))));
        assertNotNull(diff(UNORDERED, rows(row(1, "1")), rows(row(1, 1))));
        assertNull(diff(UNORDERED, rows(row(1, java.sql.Date.valueOf("1969-12-31"))), rows(row(1, LocalDate.of(1969, 12, 31)))));
    }

    @Test
    void orderByRequiresTheOrderOfTheKeys() {
        String sql = "select k, v from t order by k desc";
        assertNull(diff(sql, rows(row(2, "x"), row(1, "y")), rows(row(2, "x"), row(1, "y"))));
        String d = diff(sql, rows(row(2, "x"), row(1, "y")), rows(row(1, "y"), row(2, "x")));
        assertNotNull(d);
        assertTrue(d.startsWith("ORDER BY [k] differs; first difference at row 0"), d);
    }

    @Test
    void rowsTyingOnTheOrderByKeysMayComeInAnyOrder() {
        String sql = "select k, v from t order by 1";
        assertNull(diff(sql, rows(row(1, "a"), row(1, "b"), row(2, "c")), rows(row(1, "b"), row(1, "a"), row(2, "c"))));
        assertNotNull(diff(sql, rows(row(1, "a"), row(1, "b"), row(2, "c")), rows(row(1, "b"), row(1, "c"), row(2, "a"))));
    }

    @Test
    void aLimitCuttingThroughTiesMayReturnAnyOfTheTiedRows() {
        String sql = "select k, v from t order by k limit 2";
        assertNull(diff(sql, rows(row(1, "a"), row(2, "b")), rows(row(1, "a"), row(2, "z"))));
        assertNotNull(diff(sql, rows(row(1, "a"), row(2, "b")), rows(row(1, "z"), row(2, "b"))));
        assertNotNull(diff(sql, rows(row(1, "a"), row(2, "b")), rows(row(1, "a"), row(3, "b"))));
    }

    @Test
    void anOffsetCuttingThroughTiesMaySkipAnyOfTheTiedRows() {
        String sql = "select k, v from t order by k offset 1";
        assertNull(diff(sql, rows(row(1, "a"), row(2, "b")), rows(row(1, "z"), row(2, "b"))));
        assertNotNull(diff(sql, rows(row(1, "a"), row(2, "b")), rows(row(1, "a"), row(2, "z"))));
    }

    @Test
    void rowCountsAndColumnCountsMustMatch() {
        String d = diff(UNORDERED, rows(row(1, "a"), row(2, "b")), rows(row(1, "a")));
        assertTrue(d.startsWith("DuckDB has 2 rows, Starling has 1"), d);
        assertNotNull(ResultComparator.difference("DuckDB", rows(row(1, "a")), "Starling",
                new ResultRows(List.of("k"), List.of(List.of(BigDecimal.ONE))), RowOrder.UNORDERED));
    }
}

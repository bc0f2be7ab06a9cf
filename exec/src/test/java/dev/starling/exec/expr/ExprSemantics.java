package dev.starling.exec.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.expr.Call.Op;
import dev.starling.exec.InvalidCastException;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQL semantics of the expression IR, row by row, for every backend that evaluates it: exact
 * decimals with rounding half away from zero, conversions made explicit by {@link ExprLowering},
 * 64-bit overflow and division by zero as errors, three-valued logic, dates, and strings. A backend
 * runs these cases by implementing {@link #eval}: the CPU evaluator in CI, the GPU's generated row
 * programs on the GPU host.
 */
public abstract class ExprSemantics {
    protected static final DataType DEC2 = DataType.decimal(12, 2);
    protected static final DataType DEC4 = DataType.decimal(15, 4);

    /**
     * {@code e} (in explicit form) evaluated over columns {@code columns} (equally long), one value
     * per row: Integer, Long, BigDecimal, Double, Boolean, LocalDate, String or null. An error of
     * the evaluation is thrown as the evaluator throws it.
     */
    protected abstract List<Object> evaluate(Expr e, Vector... columns);

    private List<Object> eval(Expr e, Vector... columns) {
        return evaluate(ExprLowering.lower(e), columns);
    }

    private static Vector exact(DataType type, Long... scaled) {
        long[] values = new long[scaled.length];
        boolean[] nulls = new boolean[scaled.length];
        for (int i = 0; i < scaled.length; i++) {
            nulls[i] = scaled[i] == null;
            values[i] = nulls[i] ? 0 : scaled[i];
        }
        return Vector.ofLongs(type, values, nulls);
    }

    private static BigDecimal dec(String v) {
        return new BigDecimal(v);
    }

    private static Call call(Op op, DataType type, Expr... args) {
        return new Call(op, List.of(args), type, true);
    }

    private static Expr col(int i, DataType type) {
        return new ColumnRef(i, type, true);
    }

    private static Expr lit(long v, DataType type) {
        return new Literal(v, type);
    }

    @Test
    void decimalProductsAreExactAndRoundHalfAwayFromZero() {
        Vector a = exact(DEC2, 125L, -125L, 130L, null);
        Vector b = exact(DEC2, 5L, 5L, 5L, 5L);
        // 1.25 * 0.05 = 0.0625 exactly at scale 4
        assertEquals(Arrays.asList(dec("0.0625"), dec("-0.0625"), dec("0.0650"), null),
                eval(call(Op.MULTIPLY, DEC4, col(0, DEC2), col(1, DEC2)), a, b));
        // at scale 2: 0.0625 -> 0.06, -0.0625 -> -0.06, 0.065 -> 0.07 (half away from zero)
        assertEquals(Arrays.asList(dec("0.06"), dec("-0.06"), dec("0.07"), null),
                eval(call(Op.MULTIPLY, DEC2, col(0, DEC2), col(1, DEC2)), a, b));
    }

    @Test
    void operandsOfOtherScalesAreConvertedExactly() {
        Vector a = exact(DEC2, 125L, -125L, 130L, null);
        Vector b = exact(DEC4, 500L, 500L, 500L, 500L);
        // 1.25 + 0.0500 at scale 4, and the result rounded to a declared scale 2
        assertEquals(Arrays.asList(dec("1.3000"), dec("-1.2000"), dec("1.3500"), null),
                eval(call(Op.ADD, DEC4, col(0, DEC2), col(1, DEC4)), a, b));
        assertEquals(Arrays.asList(dec("1.20"), dec("-1.30"), dec("1.25"), null),
                eval(call(Op.SUBTRACT, DEC2, col(0, DEC2), col(1, DEC4)), a, b));
        // a decimal compared with an integer, and with a literal at a larger scale
        assertEquals(Arrays.asList(true, false, true, null),
                eval(call(Op.GT, DataType.BOOLEAN, col(0, DEC2), lit(1, DataType.INTEGER)), a));
        assertEquals(Arrays.asList(false, true, false, null),
                eval(call(Op.LE, DataType.BOOLEAN, col(0, DEC2), lit(12_499, DEC4)), a));
        // IN with literals of other scales: 1.2500 matches 1.25; 1.255 can match no value at scale 2
        assertEquals(Arrays.asList(true, false, false, null), eval(call(Op.IN, DataType.BOOLEAN, col(0, DEC2),
                lit(12_500, DEC4), lit(1_255, DataType.decimal(6, 3))), a));
        assertEquals(Arrays.asList(false, false, false, null), eval(call(Op.IN, DataType.BOOLEAN, col(0, DEC2),
                lit(1_255, DataType.decimal(6, 3))), a));
        // a double compared with a decimal literal: the literal's nearest double
        Vector x = Vector.ofDoubles(new double[] {0.1, 0.2}, null);
        assertEquals(List.of(true, false), eval(call(Op.IN, DataType.BOOLEAN, col(0, DataType.DOUBLE),
                lit(1, DataType.decimal(2, 1))), x));
        assertEquals(List.of(false, true), eval(call(Op.GT, DataType.BOOLEAN, col(0, DataType.DOUBLE),
                lit(15, DEC2)), x));
        // CASE's branches of other scales take the result's
        assertEquals(Arrays.asList(dec("1.25"), dec("0.50"), dec("1.30"), dec("0.50")), eval(call(Op.CASE, DEC2,
                call(Op.GT, DataType.BOOLEAN, col(0, DEC2), lit(0, DataType.INTEGER)), col(0, DEC2),
                lit(5, DataType.decimal(2, 1))), a));
        assertEquals(Arrays.asList(dec("1.25"), dec("-1.25"), dec("1.30"), dec("7.00")),
                eval(call(Op.COALESCE, DEC2, col(0, DEC2), lit(7, DataType.INTEGER)), a));
    }

    @Test
    void overflowIsAnErrorNotAWrappedValue() {
        Vector big = Vector.ofLongs(DataType.BIGINT, new long[] {Long.MAX_VALUE}, null);
        Vector one = Vector.ofLongs(DataType.BIGINT, new long[] {1}, null);
        Vector small = Vector.ofLongs(DataType.BIGINT, new long[] {Long.MIN_VALUE}, null);
        ArithmeticException add = assertThrows(ArithmeticException.class,
                () -> eval(call(Op.ADD, DataType.BIGINT, col(0, DataType.BIGINT), col(1, DataType.BIGINT)), big, one));
        assertTrue(add.getMessage().contains("overflow"), add.getMessage());
        assertThrows(ArithmeticException.class,
                () -> eval(call(Op.SUBTRACT, DataType.BIGINT, col(0, DataType.BIGINT), col(1, DataType.BIGINT)), small, one));
        assertThrows(ArithmeticException.class,
                () -> eval(call(Op.MULTIPLY, DataType.BIGINT, col(0, DataType.BIGINT), col(0, DataType.BIGINT)), big));
        // INTEGER arithmetic computes in 64 bits; its result must fit 32
        Vector ints = Vector.ofLongs(DataType.INTEGER, new long[] {Integer.MAX_VALUE}, null);
        assertThrows(ArithmeticException.class,
                () -> eval(call(Op.ADD, DataType.INTEGER, col(0, DataType.INTEGER), lit(1, DataType.INTEGER)), ints));
        assertEquals(List.of(2_147_483_646), eval(call(Op.SUBTRACT, DataType.INTEGER, col(0, DataType.INTEGER),
                lit(1, DataType.INTEGER)), ints));
    }

    @Test
    void quotientsRoundHalfAwayFromZeroAndIntegerDivisionTruncates() {
        Vector a = exact(DEC2, 100L, -100L, 200L, 700L, 5L, -5L);
        Vector b = exact(DataType.INTEGER, 3L, 3L, 3L, -2L, 2L, 2L);
        assertEquals(List.of(dec("0.3333"), dec("-0.3333"), dec("0.6667"), dec("-3.5000"), dec("0.0250"), dec("-0.0250")),
                eval(call(Op.DIVIDE, DEC4, col(0, DEC2), col(1, DataType.INTEGER)), a, b));
        // 0.05 / 2 = 0.025 -> 0.03 at scale 2
        assertEquals(List.of(dec("0.33"), dec("-0.33"), dec("0.67"), dec("-3.50"), dec("0.03"), dec("-0.03")),
                eval(call(Op.DIVIDE, DEC2, col(0, DEC2), col(1, DataType.INTEGER)), a, b));
        Vector x = exact(DataType.BIGINT, 7L, -7L, Long.MIN_VALUE);
        Vector y = exact(DataType.BIGINT, 2L, 2L, -1L);
        assertEquals(List.of(3L, -3L), eval(call(Op.DIVIDE, DataType.BIGINT, col(0, DataType.BIGINT), col(1, DataType.BIGINT)),
                exact(DataType.BIGINT, 7L, -7L), exact(DataType.BIGINT, 2L, 2L)));
        assertEquals(List.of(1L, -1L, 0L), eval(call(Op.MOD, DataType.BIGINT, col(0, DataType.BIGINT), col(1, DataType.BIGINT)), x, y));
        assertThrows(ArithmeticException.class,
                () -> eval(call(Op.DIVIDE, DataType.BIGINT, col(0, DataType.BIGINT), col(1, DataType.BIGINT)), x, y));
        assertEquals(List.of(dec("1.00"), dec("1.00"), dec("2.00"), dec("7.00"), dec("0.05"), dec("0.05")),
                eval(call(Op.ABS, DEC2, col(0, DEC2)), a));
        assertEquals(List.of(dec("-1.00"), dec("1.00"), dec("-2.00"), dec("-7.00"), dec("-0.05"), dec("0.05")),
                eval(call(Op.NEGATE, DEC2, col(0, DEC2)), a));
        assertThrows(ArithmeticException.class, () -> eval(call(Op.NEGATE, DataType.BIGINT, col(0, DataType.BIGINT)), x));
    }

    @Test
    void divisionByZeroIsAnError() {
        Vector one = Vector.ofLongs(DataType.BIGINT, new long[] {1}, null);
        Vector zero = Vector.ofLongs(DataType.BIGINT, new long[] {0}, null);
        ArithmeticException divide = assertThrows(ArithmeticException.class,
                () -> eval(call(Op.DIVIDE, DataType.BIGINT, col(0, DataType.BIGINT), col(1, DataType.BIGINT)), one, zero));
        assertTrue(divide.getMessage().contains("division by zero"), divide.getMessage());
    }

    @Test
    void nullsFollowThreeValuedLogic() {
        Vector t = Vector.ofLongs(DataType.BOOLEAN, new long[] {1, 0, 0, 1}, new boolean[] {false, false, true, true});
        Vector u = Vector.ofLongs(DataType.BOOLEAN, new long[] {0, 0, 0, 0}, new boolean[] {true, true, true, true});
        Expr a = col(0, DataType.BOOLEAN);
        Expr nul = col(1, DataType.BOOLEAN);
        // TRUE AND NULL = NULL, FALSE AND NULL = FALSE, NULL AND NULL = NULL
        assertEquals(Arrays.asList(null, false, null, null), eval(call(Op.AND, DataType.BOOLEAN, a, nul), t, u));
        // TRUE OR NULL = TRUE, FALSE OR NULL = NULL
        assertEquals(Arrays.asList(true, null, null, null), eval(call(Op.OR, DataType.BOOLEAN, a, nul), t, u));
        assertEquals(Arrays.asList(false, true, null, null), eval(call(Op.NOT, DataType.BOOLEAN, a), t, u));
        assertEquals(Arrays.asList(true, false, null, null), eval(call(Op.IN, DataType.BOOLEAN, a,
                new Literal(true, DataType.BOOLEAN)), t, u));
        // IS NOT TRUE is never NULL
        assertEquals(Arrays.asList(false, true, true, true),
                eval(new Call(Op.IS_NOT_TRUE, List.of(a), DataType.BOOLEAN, false), t, u));
        // a comparison with NULL is NULL, NULL + 1 is NULL, and a miss of an IN list holding NULL is NULL
        Vector n = exact(DataType.BIGINT, 1L, null, 2L);
        assertEquals(Arrays.asList(true, null, false), eval(call(Op.EQ, DataType.BOOLEAN, col(0, DataType.BIGINT),
                lit(1, DataType.BIGINT)), n));
        assertEquals(Arrays.asList(2L, null, 3L), eval(call(Op.ADD, DataType.BIGINT, col(0, DataType.BIGINT),
                lit(1, DataType.BIGINT)), n));
        assertEquals(Arrays.asList(true, null, null), eval(call(Op.IN, DataType.BOOLEAN, col(0, DataType.BIGINT),
                lit(1, DataType.BIGINT), new Literal(null, DataType.BIGINT)), n));
    }

    @Test
    void datesExtractAndAddMonthsClampingTheDay() {
        long leap = LocalDate.of(1996, 2, 29).toEpochDay();
        long endOfJanuary = LocalDate.of(1996, 1, 31).toEpochDay();
        Vector d = Vector.ofLongs(DataType.DATE, new long[] {leap, endOfJanuary}, null);
        Expr date = col(0, DataType.DATE);
        assertEquals(List.of(1996L, 1996L), eval(call(Op.EXTRACT_YEAR, DataType.BIGINT, date), d));
        assertEquals(List.of(2L, 1L), eval(call(Op.EXTRACT_MONTH, DataType.BIGINT, date), d));
        assertEquals(List.of(29L, 31L), eval(call(Op.EXTRACT_DAY, DataType.BIGINT, date), d));
        assertEquals(List.of(1L, 1L), eval(call(Op.EXTRACT_QUARTER, DataType.BIGINT, date), d));
        // 1996-02-29 + 12 months = 1997-02-28; 1996-01-31 + 1 month = 1996-02-29
        Expr plusYear = call(Op.DATE_ADD_MONTHS, DataType.DATE, date, lit(12, DataType.INTEGER));
        Expr plusMonth = call(Op.DATE_ADD_MONTHS, DataType.DATE, date, lit(1, DataType.INTEGER));
        assertEquals(LocalDate.of(1997, 2, 28), eval(plusYear, d).get(0));
        assertEquals(LocalDate.of(1996, 2, 29), eval(plusMonth, d).get(1));
        assertEquals(LocalDate.of(1996, 3, 7), eval(call(Op.DATE_ADD_DAYS, DataType.DATE, date, lit(7, DataType.INTEGER)), d).get(0));
    }

    @Test
    void stringsSubstringLikeAndCase() {
        DataType text = DataType.VARCHAR;
        Expr word = new Literal("Starling's nest", text);
        Vector any = Vector.ofLongs(DataType.BIGINT, new long[] {0}, null);
        assertEquals(List.of("tar"), eval(call(Op.SUBSTRING, text, word, lit(2, DataType.INTEGER), lit(3, DataType.INTEGER)), any));
        assertEquals(List.of("STARLING'S NEST"), eval(call(Op.UPPER, text, word), any));
        assertEquals(List.of(15), eval(call(Op.CHAR_LENGTH, DataType.INTEGER, word), any));
        assertEquals(List.of(true), eval(call(Op.LIKE, DataType.BOOLEAN, word, new Literal("%ling_s%", text)), any));
        assertEquals(List.of(false), eval(call(Op.LIKE, DataType.BOOLEAN, word, new Literal("%ling!_s%", text),
                new Literal("!", text)), any));
    }

    @Test
    void castsRoundHalfAwayFromZero() {
        Vector d = Vector.ofDoubles(new double[] {2.345, -2.345, 2.5}, null);
        assertEquals(List.of(dec("2.35"), dec("-2.35"), dec("2.50")), eval(call(Op.CAST, DEC2, col(0, DataType.DOUBLE)), d));
        assertEquals(List.of(2L, -2L, 3L), eval(call(Op.CAST, DataType.BIGINT, col(0, DataType.DOUBLE)), d));
        Vector e = exact(DataType.decimal(12, 3), 1_245L, -1_245L, 1_244L);
        assertEquals(List.of(dec("1.25"), dec("-1.25"), dec("1.24")), eval(call(Op.CAST, DEC2, col(0, DataType.decimal(12, 3))), e));
        assertEquals(List.of(1.245, -1.245, 1.244), eval(call(Op.CAST, DataType.DOUBLE, col(0, DataType.decimal(12, 3))), e));
    }

    @Test
    void castsToADecimalFailPastItsPrecision() {
        DataType narrow = DataType.decimal(3, 1);
        DataType wide = DataType.decimal(4, 2);
        assertEquals(List.of(dec("99.9"), dec("-99.9")), eval(call(Op.CAST, narrow, col(0, wide)), exact(wide, 9_994L, -9_994L)));
        // rounding to the smaller scale carries into a third whole digit: 99.95 is 100.0
        InvalidCastException carried = assertThrows(InvalidCastException.class,
                () -> eval(call(Op.CAST, narrow, col(0, wide)), exact(wide, 1L, -9_995L)));
        assertTrue(carried.getMessage().contains("-99.95") && carried.getMessage().contains("DECIMAL(3,1)"),
                carried.getMessage());
        // 10^16 has 17 whole digits, one more than DECIMAL(18,2) holds
        Vector big = Vector.ofLongs(DataType.BIGINT, new long[] {9_999_999_999_999_999L, 10_000_000_000_000_000L}, null);
        assertThrows(InvalidCastException.class, () -> eval(call(Op.CAST, DataType.decimal(18, 2), col(0, DataType.BIGINT)), big));
        assertThrows(InvalidCastException.class, () -> eval(call(Op.CAST, DataType.decimal(18, 2), col(0, DataType.BIGINT)),
                Vector.ofLongs(DataType.BIGINT, new long[] {Long.MIN_VALUE}, null)));
        assertThrows(InvalidCastException.class, () -> eval(call(Op.CAST, narrow, col(0, DataType.DOUBLE)),
                Vector.ofDoubles(new double[] {99.9, 100.0}, null)));
    }

    @Test
    void loweringMakesEveryConversionACast() {
        Expr sum = ExprLowering.lower(call(Op.ADD, DEC4, col(0, DEC2), col(1, DataType.INTEGER)));
        assertEquals("CAST[ADD[$0, CAST[$1]]]", sum.toString());
        Expr compare = ExprLowering.lower(call(Op.LT, DataType.BOOLEAN, col(0, DEC2), lit(5, DataType.INTEGER)));
        assertEquals(new Literal(500L, DEC2), ((Call) compare).args().get(1), "a literal takes the column's scale");
        Expr ints = ExprLowering.lower(call(Op.MULTIPLY, DataType.INTEGER, col(0, DataType.INTEGER), col(1, DataType.INTEGER)));
        assertEquals(Op.CAST, ((Call) ints).op(), "INTEGER arithmetic computes in 64 bits and checks its range in a CAST");
        assertEquals(ints, ExprLowering.lower(ints), "lowering is idempotent");
    }
}

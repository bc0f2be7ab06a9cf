package dev.starling.exec.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.Call.Op;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQL semantics of the CPU backend's evaluator, row by row: exact decimals with rounding half
 * away from zero, 64-bit overflow and division by zero as errors, three-valued logic, dates, and
 * strings. These are the rules the GPU's row programs must reproduce (docs/GPU.md).
 */
class ExprSemanticsTest {
    private static final DataType DEC2 = DataType.decimal(12, 2);
    private static final DataType DEC4 = DataType.decimal(15, 4);

    /** {@code e} evaluated over columns {@code columns}, every row: Long, Double, Boolean, String or null. */
    private static List<Object> eval(Expr e, Vector... columns) {
        int rows = columns.length == 0 ? 1 : columns[0].longs() != null ? columns[0].longs().length : columns[0].doubles().length;
        Vector v = ExprCompiler.compile(e).eval(new Batch(columns, rows));
        List<Object> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            out.add(v.isNull(r) ? null : v.value(r));
        }
        return out;
    }

    private static Vector decimals(DataType type, Long... scaled) {
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

    @Test
    void decimalProductsAreExactAndRescaleHalfAwayFromZero() {
        Vector a = decimals(DEC2, 125L, -125L, 130L, null);
        Vector b = decimals(DEC2, 5L, 5L, 5L, 5L);
        // 1.25 * 0.05 = 0.0625 exactly at scale 4
        assertEquals(Arrays.asList(dec("0.0625"), dec("-0.0625"), dec("0.0650"), null), eval(call(Op.MULTIPLY, DEC4, col(0, DEC2), col(1, DEC2)), a, b));
        // at scale 2: 0.0625 -> 0.06, -0.0625 -> -0.06, 0.065 -> 0.07 (half away from zero)
        assertEquals(Arrays.asList(dec("0.06"), dec("-0.06"), dec("0.07"), null), eval(call(Op.MULTIPLY, DEC2, col(0, DEC2), col(1, DEC2)), a, b));
        // 1.25 + 0.05 across scales
        assertEquals(Arrays.asList(dec("1.3000"), dec("-1.2000"), dec("1.3500"), null), eval(call(Op.ADD, DEC4, col(0, DEC2), col(1, DEC2)), a, b));
    }

    @Test
    void overflowAndDivisionByZeroAreErrorsNotWrappedValues() {
        Vector big = Vector.ofLongs(DataType.BIGINT, new long[] {Long.MAX_VALUE}, null);
        Vector one = Vector.ofLongs(DataType.BIGINT, new long[] {1}, null);
        Vector zero = Vector.ofLongs(DataType.BIGINT, new long[] {0}, null);
        ArithmeticException add = assertThrows(ArithmeticException.class,
                () -> eval(call(Op.ADD, DataType.BIGINT, col(0, DataType.BIGINT), col(1, DataType.BIGINT)), big, one));
        assertTrue(add.getMessage().contains("overflow"), add.getMessage());
        assertThrows(ArithmeticException.class,
                () -> eval(call(Op.MULTIPLY, DataType.BIGINT, col(0, DataType.BIGINT), col(0, DataType.BIGINT)), big));
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
        // IS NOT TRUE is never NULL
        assertEquals(Arrays.asList(false, true, true, true),
                eval(new Call(Op.IS_NOT_TRUE, List.of(a), DataType.BOOLEAN, false), t, u));
        // a comparison with NULL is NULL, and NULL + 1 is NULL
        Vector n = decimals(DataType.BIGINT, 1L, null);
        assertEquals(Arrays.asList(true, null), eval(call(Op.EQ, DataType.BOOLEAN, col(0, DataType.BIGINT),
                new Literal(1L, DataType.BIGINT)), n));
        assertEquals(Arrays.asList(2L, null), eval(call(Op.ADD, DataType.BIGINT, col(0, DataType.BIGINT),
                new Literal(1L, DataType.BIGINT)), n));
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
        Expr plusYear = call(Op.DATE_ADD_MONTHS, DataType.DATE, date, new Literal(12L, DataType.INTEGER));
        Expr plusMonth = call(Op.DATE_ADD_MONTHS, DataType.DATE, date, new Literal(1L, DataType.INTEGER));
        assertEquals(LocalDate.of(1997, 2, 28), eval(plusYear, d).get(0));
        assertEquals(LocalDate.of(1996, 2, 29), eval(plusMonth, d).get(1));
        assertEquals(LocalDate.of(1996, 3, 7), eval(call(Op.DATE_ADD_DAYS, DataType.DATE, date, new Literal(7L, DataType.INTEGER)), d).get(0));
    }

    @Test
    void stringsSubstringLikeAndCase() {
        DataType text = DataType.VARCHAR;
        Expr word = new Literal("Starling's nest", text);
        Vector any = Vector.ofLongs(DataType.BIGINT, new long[] {0}, null);
        assertEquals(List.of("tar"), eval(call(Op.SUBSTRING, text, word, new Literal(2L, DataType.INTEGER),
                new Literal(3L, DataType.INTEGER)), any));
        assertEquals(List.of("STARLING'S NEST"), eval(call(Op.UPPER, text, word), any));
        assertEquals(List.of(15), eval(call(Op.CHAR_LENGTH, DataType.INTEGER, word), any));
        assertEquals(List.of(true), eval(call(Op.LIKE, DataType.BOOLEAN, word, new Literal("%ling_s%", text)), any));
        assertEquals(List.of(false), eval(call(Op.LIKE, DataType.BOOLEAN, word, new Literal("%ling!_s%", text),
                new Literal("!", text)), any));
    }

    @Test
    void castsRoundHalfAwayFromZero() {
        Vector d = Vector.ofDoubles(new double[] {2.345, -2.345, 2.5}, null);
        assertEquals(List.of(dec("2.35"), dec("-2.35"), dec("2.50")), eval(new Call(Op.CAST, List.of(new ColumnRef(0, DataType.DOUBLE, false)),
                DEC2, false), d));
        assertEquals(List.of(2L, -2L, 3L), eval(new Call(Op.CAST, List.of(new ColumnRef(0, DataType.DOUBLE, false)),
                DataType.BIGINT, false), d));
    }
}

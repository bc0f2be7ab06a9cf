package dev.starling.exec.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class SelectionFilterTest {
    private static final DataType DEC = DataType.decimal(12, 2);
    /** Column 0: DECIMAL(12,2) 1.00, 1.50, 2.00, NULL, 2.50, 3.00; column 1: BIGINT 0..5. */
    private static final Batch BATCH = new Batch(new Vector[] {
        Vector.ofLongs(DEC, new long[] {100, 150, 200, 0, 250, 300}, new boolean[] {false, false, false, true, false, false}),
        Vector.ofLongs(DataType.BIGINT, new long[] {0, 1, 2, 3, 4, 5}, null)}, 6);

    private static int[] selected(Expr condition) {
        int[] sel = new int[BATCH.rows()];
        SelectionFilter.identity(sel, sel.length);
        return Arrays.copyOf(sel, FilterCompiler.compile(ExprLowering.lower(condition)).filter(BATCH, sel, sel.length));
    }

    private static Expr cmp(Call.Op op, Expr a, Expr b) {
        return new Call(op, List.of(a, b), DataType.BOOLEAN, true);
    }

    private static final Expr AMOUNT = new ColumnRef(0, DEC, true);
    private static final Expr ID = new ColumnRef(1, DataType.BIGINT, false);

    @Test
    void comparisonsWithLiteralsOfOtherScalesAndNullRows() {
        assertArrayEquals(new int[] {2, 4, 5}, selected(cmp(Call.Op.GE, AMOUNT, new Literal(2L, DataType.INTEGER))));
        assertArrayEquals(new int[] {0, 1}, selected(cmp(Call.Op.GT, new Literal(20L, DataType.decimal(3, 1)), AMOUNT)));
        assertArrayEquals(new int[] {0, 2, 4, 5}, selected(cmp(Call.Op.NE, AMOUNT, new Literal(15L, DataType.decimal(3, 1)))));
        // A literal finer than the column is compared exactly through the general evaluator.
        assertArrayEquals(new int[] {2, 4, 5}, selected(cmp(Call.Op.GT, AMOUNT, new Literal(1999L, DataType.decimal(6, 3)))));
        assertArrayEquals(new int[] {}, selected(cmp(Call.Op.LT, ID, new Literal(Long.MIN_VALUE, DataType.BIGINT))));
    }

    @Test
    void conjunctsNarrowTheSelectionInTurn() {
        Expr and = new Call(Call.Op.AND, List.of(cmp(Call.Op.GE, ID, new Literal(1L, DataType.BIGINT)),
                cmp(Call.Op.LE, AMOUNT, new Literal(250L, DEC)),
                new Call(Call.Op.IS_NOT_NULL, List.of(AMOUNT), DataType.BOOLEAN, false)), DataType.BOOLEAN, true);
        assertArrayEquals(new int[] {1, 2, 4}, selected(and));
    }

    @Test
    void likeWithPercentOnlyMatchesPiecesInOrder() {
        Predicate<String> p = LikePattern.compile("%special%requests%", null);
        assertTrue(p.test("special requests"));
        assertTrue(p.test("xx special, urgent requests yy"));
        assertFalse(p.test("requests special"));
        Predicate<String> anchored = LikePattern.compile("ab%ba", null);
        assertTrue(anchored.test("abba"));
        assertTrue(anchored.test("ab-ba"));
        assertFalse(anchored.test("aba"));
        Predicate<String> overlap = LikePattern.compile("%aa%aa%", null);
        assertFalse(overlap.test("aaa"));
        assertTrue(overlap.test("aaaa"));
        assertTrue(LikePattern.compile("a\\%%", "\\").test("a%bc"));
        assertFalse(LikePattern.compile("a\\%%", "\\").test("abc"));
        assertEquals(true, LikePattern.compile("%", null).test(""));
    }
}

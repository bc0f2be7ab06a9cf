package dev.starling.exec;

import dev.starling.exec.run.Executor;
import static dev.starling.exec.Plans.bool;
import static dev.starling.exec.Plans.call;
import static dev.starling.exec.Plans.col;
import static dev.starling.exec.Plans.lit;
import static dev.starling.exec.Plans.scan;
import static dev.starling.exec.Plans.str;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.expr.Call.Op;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.AggregateNode.Function;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.LimitNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.SortNode.SortKey;
import dev.starling.exec.plan.UnionNode;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ExecutorTest {
    static final DataType DEC = DataType.decimal(10, 2);
    static Executor executor;
    static Table items;

    /** items(id INTEGER, price DECIMAL(10,2), name VARCHAR, day DATE, score DOUBLE NULL, flag BOOLEAN NULL). */
    @BeforeAll
    static void setUp() {
        executor = new Executor(2);
        TableSchema schema = new TableSchema("items", List.of(
                new ColumnSchema("id", DataType.INTEGER, false),
                new ColumnSchema("price", DEC, false),
                new ColumnSchema("name", DataType.VARCHAR, false),
                new ColumnSchema("day", DataType.DATE, false),
                new ColumnSchema("score", DataType.DOUBLE, true),
                new ColumnSchema("flag", DataType.BOOLEAN, true)), List.of("id"), List.of());
        TableBuilder b = new TableBuilder(schema, Catalog.inMemory());
        String[] names = {"apple", "banana", "cherry", "date"};
        for (int i = 0; i < 10; i++) {
            b.setLong(0, i);
            b.setLong(1, 100L * i + 5); // i.05
            b.setString(2, names[i % 4]);
            b.setLong(3, LocalDate.of(2024, 1, 31).toEpochDay() + i);
            if (i % 3 == 0) {
                b.setNull(4);
                b.setNull(5);
            } else {
                b.setDouble(4, i * 1.5);
                b.setBoolean(5, i % 2 == 0);
            }
            b.endRow();
        }
        items = b.build();
    }

    @AfterAll
    static void tearDown() {
        executor.close();
    }

    static List<List<Object>> rows(PlanNode plan) {
        return executor.collect(plan).rows();
    }

    static List<Object> column(PlanNode plan, int c) {
        return rows(plan).stream().map(r -> r.get(c)).toList();
    }

    static PlanNode project(PlanNode in, Expr... exprs) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < exprs.length; i++) {
            names.add("c" + i);
        }
        return new ProjectNode(in, List.of(exprs), names);
    }

    static PlanNode sorted(PlanNode in, int column) {
        return new SortNode(in, List.of(new SortKey(column, false, false)), 0, -1);
    }

    @Test
    void scanFilterProjectWithDecimalArithmetic() {
        PlanNode scan = scan(items, bool(Op.GT, col(1, DEC), lit(500, DEC)), 0, 1);
        PlanNode p = project(scan, col(0, DataType.INTEGER),
                call(Op.MULTIPLY, DataType.decimal(12, 2), col(1, DEC), lit(2, DataType.INTEGER)));
        List<List<Object>> r = rows(sorted(p, 0));
        assertEquals(5, r.size());
        assertEquals(List.of(5, new BigDecimal("10.10")), r.get(0));
        assertEquals(List.of(9, new BigDecimal("18.10")), r.get(4));
    }

    @Test
    void decimalDivisionAndMultiplicationRoundHalfAwayFromZero() {
        PlanNode one = new ValuesNode(List.of(new Field("a", DEC, false), new Field("b", DEC, false)),
                List.of(List.of(100L, 300L), List.of(200L, 300L), List.of(-200L, 300L), List.of(5L, 50L), List.of(-5L, 50L)));
        PlanNode p = project(one,
                call(Op.DIVIDE, DEC, col(0, DEC), col(1, DEC)),
                call(Op.MULTIPLY, DEC, col(0, DEC), col(1, DEC)),
                call(Op.DIVIDE, DataType.DOUBLE, col(0, DEC), col(1, DEC)),
                call(Op.ADD, DataType.decimal(12, 3), col(0, DEC), lit(1, DataType.decimal(4, 3))));
        List<List<Object>> r = rows(p);
        assertEquals(List.of(new BigDecimal("0.33"), new BigDecimal("3.00"), 1.0 / 3, new BigDecimal("1.001")), r.get(0));
        assertEquals(new BigDecimal("0.67"), r.get(1).get(0));
        assertEquals(new BigDecimal("-0.67"), r.get(2).get(0));
        assertEquals(new BigDecimal("0.03"), r.get(3).get(1)); // 0.05 * 0.50 = 0.025
        assertEquals(new BigDecimal("-0.03"), r.get(4).get(1));
    }

    @Test
    void divisionByZeroIsAClearError() {
        PlanNode p = project(scan(items, 0), call(Op.DIVIDE, DataType.INTEGER, lit(1, DataType.INTEGER), col(0, DataType.INTEGER)));
        ArithmeticException e = assertThrows(ArithmeticException.class, () -> rows(p));
        assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
    }

    @Test
    void guardedDivisionIsNotEvaluatedOnExcludedRows() {
        Expr guard = bool(Op.AND, bool(Op.NE, col(0, DataType.INTEGER), lit(0, DataType.INTEGER)),
                bool(Op.GT, call(Op.DIVIDE, DataType.INTEGER, lit(10, DataType.INTEGER), col(0, DataType.INTEGER)),
                        lit(2, DataType.INTEGER)));
        assertEquals(List.of(1, 2, 3), column(sorted(new FilterNode(scan(items, 0), guard), 0), 0));
        Expr caseExpr = call(Op.CASE, DataType.INTEGER, bool(Op.EQ, col(0, DataType.INTEGER), lit(0, DataType.INTEGER)),
                lit(-1, DataType.INTEGER), call(Op.DIVIDE, DataType.INTEGER, lit(10, DataType.INTEGER), col(0, DataType.INTEGER)));
        assertEquals(List.of(-1, 10, 5, 3), column(sorted(project(scan(items, 0), col(0, DataType.INTEGER), caseExpr), 0), 1)
                .subList(0, 4));
    }

    @Test
    void threeValuedLogic() {
        // score > 5 is NULL for ids 0,3,6,9; flag is NULL there too.
        Expr scoreBig = bool(Op.GT, col(1, DataType.DOUBLE), new Literal(5.0, DataType.DOUBLE));
        Expr flag = col(2, DataType.BOOLEAN);
        PlanNode p = project(scan(items, 0, 4, 5), col(0, DataType.INTEGER), bool(Op.OR, scoreBig, flag),
                bool(Op.AND, scoreBig, flag), bool(Op.IS_NULL, col(1, DataType.DOUBLE)), bool(Op.NOT, flag));
        List<List<Object>> r = rows(sorted(p, 0));
        assertEquals(Arrays.asList(0, null, null, true, null), r.get(0));
        assertEquals(Arrays.asList(1, false, false, false, true), r.get(1)); // score 1.5, flag false
        assertEquals(Arrays.asList(2, true, false, false, false), r.get(2)); // 3.0, true
        assertEquals(Arrays.asList(4, true, true, false, false), r.get(4)); // 6.0, true
        assertEquals(Arrays.asList(5, true, false, false, true), r.get(5)); // 7.5, false
    }

    @Test
    void stringPredicatesAndFunctions() {
        Expr like = bool(Op.LIKE, col(1, DataType.VARCHAR), str("%an%"));
        Expr in = bool(Op.IN, col(1, DataType.VARCHAR), str("apple"), str("date"));
        Expr lt = bool(Op.LT, col(1, DataType.VARCHAR), str("c"));
        Expr sub = call(Op.SUBSTRING, DataType.VARCHAR, col(1, DataType.VARCHAR), lit(2, DataType.INTEGER), lit(3, DataType.INTEGER));
        Expr upper = call(Op.UPPER, DataType.VARCHAR, col(1, DataType.VARCHAR));
        Expr len = call(Op.CHAR_LENGTH, DataType.INTEGER, col(1, DataType.VARCHAR));
        Expr concat = call(Op.CONCAT, DataType.VARCHAR, col(1, DataType.VARCHAR), str("-"), col(1, DataType.VARCHAR));
        List<List<Object>> r = rows(sorted(project(scan(items, 0, 2), col(0, DataType.INTEGER), like, in, lt, sub, upper, len, concat), 0));
        assertEquals(List.of(0, false, true, true, "ppl", "APPLE", 5, "apple-apple"), r.get(0));
        assertEquals(List.of(1, true, false, true, "ana", "BANANA", 6, "banana-banana"), r.get(1));
        assertEquals(List.of(2, false, false, false, "her", "CHERRY", 6, "cherry-cherry"), r.get(2));
    }

    @Test
    void inListOnNumbersWithNull() {
        Expr in = bool(Op.IN, col(0, DataType.INTEGER), lit(1, DataType.INTEGER), lit(3, DataType.BIGINT),
                new Literal(null, DataType.INTEGER));
        List<Object> r = column(sorted(project(scan(items, 0), col(0, DataType.INTEGER), in), 0), 1);
        assertEquals(Arrays.asList(null, true, null, true, null), r.subList(0, 5));
    }

    @Test
    void datesExtractAddAndCast() {
        Expr year = call(Op.EXTRACT_YEAR, DataType.BIGINT, col(1, DataType.DATE));
        Expr month = call(Op.EXTRACT_MONTH, DataType.BIGINT, col(1, DataType.DATE));
        Expr quarter = call(Op.EXTRACT_QUARTER, DataType.BIGINT, col(1, DataType.DATE));
        Expr day = call(Op.EXTRACT_DAY, DataType.BIGINT, col(1, DataType.DATE));
        Expr plusMonth = call(Op.DATE_ADD_MONTHS, DataType.DATE, col(1, DataType.DATE), lit(1, DataType.INTEGER));
        Expr plusDays = call(Op.DATE_ADD_DAYS, DataType.DATE, col(1, DataType.DATE), lit(-31, DataType.INTEGER));
        Expr asText = call(Op.CAST, DataType.VARCHAR, col(1, DataType.DATE));
        Expr parsed = call(Op.CAST, DataType.DATE, str("2024-03-01"));
        List<List<Object>> r = rows(sorted(project(scan(items, 0, 3), col(0, DataType.INTEGER), year, month, quarter, day,
                plusMonth, plusDays, asText, parsed), 0));
        assertEquals(List.of(0, 2024L, 1L, 1L, 31L, LocalDate.of(2024, 2, 29), LocalDate.of(2023, 12, 31), "2024-01-31",
                LocalDate.of(2024, 3, 1)), r.get(0));
        assertEquals(List.of(1, 2024L, 2L, 1L, 1L, LocalDate.of(2024, 3, 1), LocalDate.of(2024, 1, 1), "2024-02-01",
                LocalDate.of(2024, 3, 1)), r.get(1));
    }

    @Test
    void castsRoundHalfAwayFromZero() {
        PlanNode v = new ValuesNode(List.of(new Field("d", DataType.decimal(10, 3), false), new Field("x", DataType.DOUBLE, false)),
                List.of(List.of(2_345L, 2.5), List.of(-2_345L, -2.5)));
        PlanNode p = project(v, call(Op.CAST, DataType.decimal(10, 2), col(0, DataType.decimal(10, 3))),
                call(Op.CAST, DataType.INTEGER, col(1, DataType.DOUBLE)),
                call(Op.CAST, DataType.DOUBLE, col(0, DataType.decimal(10, 3))),
                call(Op.CAST, DataType.VARCHAR, col(0, DataType.decimal(10, 3))),
                call(Op.CAST, DataType.decimal(10, 2), str(" 12.345 ")));
        List<List<Object>> r = rows(p);
        assertEquals(List.of(new BigDecimal("2.35"), 3, 2.345, "2.345", new BigDecimal("12.35")), r.get(0));
        assertEquals(List.of(new BigDecimal("-2.35"), -3, -2.345, "-2.345", new BigDecimal("12.35")), r.get(1));
    }

    @Test
    void groupByWithNullKeysAndAllAggregates() {
        DataType dbl = DataType.DOUBLE;
        AggregateNode agg = new AggregateNode(scan(items, 5, 1, 4, 2), new int[] {0}, List.of(
                new AggCall(Function.COUNT_STAR, -1, false, -1, "n", DataType.BIGINT, false),
                new AggCall(Function.SUM, 1, false, -1, "s", DataType.decimal(18, 2), true),
                new AggCall(Function.AVG, 1, false, -1, "a", DataType.decimal(18, 2), true),
                new AggCall(Function.MIN, 2, false, -1, "mn", dbl, true),
                new AggCall(Function.MAX, 3, false, -1, "mx", DataType.VARCHAR, true),
                new AggCall(Function.COUNT, 2, false, -1, "c", DataType.BIGINT, false),
                new AggCall(Function.AVG, 1, false, -1, "ad", dbl, true)));
        List<List<Object>> r = rows(new SortNode(agg, List.of(new SortKey(0, false, true)), 0, -1));
        // flag NULL: ids 0,3,6,9; TRUE: 2,4,8; FALSE: 1,5,7
        assertEquals(Arrays.asList(null, 4L, new BigDecimal("18.20"), new BigDecimal("4.55"), null, "date", 0L, 4.55), r.get(0));
        assertEquals(Arrays.asList(false, 3L, new BigDecimal("13.15"), new BigDecimal("4.38"), 1.5, "date", 3L, 13.15 / 3), r.get(1));
        assertEquals(Arrays.asList(true, 3L, new BigDecimal("14.15"), new BigDecimal("4.72"), 3.0, "cherry", 3L, 14.15 / 3), r.get(2));
    }

    @Test
    void scalarAggregateOverEmptyInputYieldsOneRow() {
        PlanNode empty = scan(items, bool(Op.LT, col(0, DataType.INTEGER), lit(0, DataType.INTEGER)), 0, 1);
        AggregateNode agg = new AggregateNode(empty, new int[0], List.of(
                new AggCall(Function.COUNT_STAR, -1, false, -1, "n", DataType.BIGINT, false),
                new AggCall(Function.SUM, 1, false, -1, "s", DEC, true),
                new AggCall(Function.MAX, 0, false, -1, "m", DataType.INTEGER, true)));
        assertEquals(List.of(Arrays.asList(0L, null, null)), rows(agg));
        AggregateNode grouped = new AggregateNode(empty, new int[] {0}, agg.calls());
        assertEquals(List.of(), rows(grouped));
    }

    @Test
    void distinctAggregatesAndFilter() {
        PlanNode in = project(scan(items, 0, 2, 5), col(1, DataType.VARCHAR),
                bool(Op.IS_TRUE, col(2, DataType.BOOLEAN)), call(Op.MOD, DataType.INTEGER, col(0, DataType.INTEGER), lit(3, DataType.INTEGER)));
        AggregateNode agg = new AggregateNode(in, new int[0], List.of(
                new AggCall(Function.COUNT, 0, true, -1, "names", DataType.BIGINT, false),
                new AggCall(Function.SUM, 2, true, -1, "mods", DataType.BIGINT, true),
                new AggCall(Function.COUNT, 0, false, 1, "flagged", DataType.BIGINT, false),
                new AggCall(Function.COUNT, 0, true, 1, "flaggedNames", DataType.BIGINT, false)));
        // flag TRUE for 2,4,8 -> names cherry, apple, apple
        assertEquals(List.of(List.of(4L, 3L, 3L, 2L)), rows(agg));
    }

    @Test
    void sortTopNLimitOffsetValuesAndUnion() {
        PlanNode byScoreDesc = new SortNode(scan(items, 0, 4), List.of(new SortKey(1, true, false)), 1, 3);
        assertEquals(List.of(7, 5, 4), column(byScoreDesc, 0));
        PlanNode nullsFirst = new SortNode(scan(items, 0, 4), List.of(new SortKey(1, false, true), new SortKey(0, true, false)), 0, 5);
        assertEquals(List.of(9, 6, 3, 0, 1), column(nullsFirst, 0));
        PlanNode byName = new SortNode(scan(items, 2, 0), List.of(new SortKey(0, true, false), new SortKey(1, false, false)), 0, -1);
        assertEquals(List.of(3, 7, 2, 6, 1), column(byName, 1).subList(0, 5));
        assertEquals(3, rows(new LimitNode(scan(items, 0), 2, 3)).size());
        assertEquals(List.of(2, 3, 4), column(new LimitNode(sorted(scan(items, 0), 0), 2, 3), 0));
        List<Field> f = List.of(new Field("x", DataType.VARCHAR, true));
        PlanNode union = new UnionNode(List.of(new ValuesNode(f, List.of(List.of("b"), Arrays.asList((Object) null))),
                project(scan(items, 2), col(0, DataType.VARCHAR))), f);
        List<Object> u = column(new SortNode(union, List.of(new SortKey(0, false, false)), 0, -1), 0);
        assertEquals(12, u.size());
        assertEquals(Arrays.asList("apple", "apple", "apple", "b", "banana"), u.subList(0, 5));
        assertEquals(null, u.get(11));
    }

    @Test
    void coalesceAndCaseWithStrings() {
        Expr coalesce = call(Op.COALESCE, DataType.DOUBLE, col(1, DataType.DOUBLE), new Literal(-1.0, DataType.DOUBLE));
        Expr kase = call(Op.CASE, DataType.VARCHAR, bool(Op.GT, col(0, DataType.INTEGER), lit(5, DataType.INTEGER)),
                str("big"), col(2, DataType.VARCHAR));
        List<List<Object>> r = rows(sorted(project(scan(items, 0, 4, 2), col(0, DataType.INTEGER), coalesce, kase), 0));
        assertEquals(List.of(0, -1.0, "apple"), r.get(0));
        assertEquals(List.of(1, 1.5, "banana"), r.get(1));
        assertEquals(List.of(9, -1.0, "big"), r.get(9));
    }
}

package dev.starling.exec;

import dev.starling.exec.run.Executor;
import static dev.starling.exec.Plans.bool;
import static dev.starling.exec.Plans.col;
import static dev.starling.exec.Plans.lit;
import static dev.starling.exec.Plans.scan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.expr.Call.Op;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.AggregateNode.Function;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.JoinKind;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.SortNode.SortKey;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.exec.vector.Batch;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JoinAndPipelineTest {
    static final int FACT_ROWS = 150_000; // three chunks, the last partial
    static final DataType DEC = DataType.decimal(12, 2);
    static Catalog catalog;
    static Executor executor;
    static Table nation;
    static Table fact;

    /** nation(key INTEGER PK: 10, 20, ..., 50; name); fact(id BIGINT, nation INTEGER FK dense, amount DECIMAL, tag VARCHAR NULL). */
    @BeforeAll
    static void setUp() {
        catalog = Catalog.inMemory();
        TableSchema ns = new TableSchema("nation", List.of(new ColumnSchema("key", DataType.INTEGER, false),
                new ColumnSchema("name", DataType.VARCHAR, false)), List.of("key"), List.of());
        TableBuilder nb = new TableBuilder(ns, catalog);
        for (int i = 1; i <= 5; i++) {
            nb.setLong(0, i * 10);
            nb.setString(1, "n" + i);
            nb.endRow();
        }
        nation = nb.build();
        catalog.put(nation);
        TableSchema fs = new TableSchema("fact", List.of(new ColumnSchema("id", DataType.BIGINT, false),
                new ColumnSchema("nation", DataType.INTEGER, false), new ColumnSchema("amount", DEC, false),
                new ColumnSchema("tag", DataType.VARCHAR, true)), List.of(), List.of(ForeignKey.of("nation", "nation", "key")));
        TableBuilder fb = new TableBuilder(fs, catalog);
        for (int i = 0; i < FACT_ROWS; i++) {
            fb.setLong(0, i);
            fb.setLong(1, nationKey(i));
            fb.setLong(2, amount(i));
            if (i % 11 == 0) {
                fb.setNull(3);
            } else {
                fb.setString(3, "t" + (i % 13));
            }
            fb.endRow();
        }
        fact = fb.build();
        catalog.put(fact);
        executor = new Executor(2, catalog);
    }

    static long nationKey(int i) {
        return (i % 5 + 1) * 10L;
    }

    static long amount(int i) {
        return i % 1000; // cents
    }

    @AfterAll
    static void tearDown() {
        executor.close();
    }

    @Test
    void factTableIsDenseCodedAndMultiChunk() {
        assertTrue(fact.column(1).isDenseCoded());
        assertEquals(3, fact.chunkCount());
    }

    @Test
    void parallelGroupByOverManyChunksMatchesDirectComputation() {
        PlanNode in = scan(fact, 1, 2, 3);
        AggregateNode agg = new AggregateNode(in, new int[] {0, 2}, List.of(
                new AggCall(Function.SUM, 1, false, -1, "s", DataType.decimal(18, 2), false),
                new AggCall(Function.COUNT_STAR, -1, false, -1, "n", DataType.BIGINT, false),
                new AggCall(Function.COUNT, 1, true, -1, "d", DataType.BIGINT, false)));
        List<List<Object>> r = executor.collect(agg).rows();
        long[][] sums = new long[5][14];
        long[][] counts = new long[5][14];
        for (int i = 0; i < FACT_ROWS; i++) {
            int tag = i % 11 == 0 ? 13 : i % 13;
            sums[i % 5][tag] += amount(i);
            counts[i % 5][tag]++;
        }
        int groups = 0;
        for (List<Object> row : r) {
            int n = (Integer) row.get(0) / 10 - 1;
            int tag = row.get(1) == null ? 13 : Integer.parseInt(((String) row.get(1)).substring(1));
            assertEquals(BigDecimal.valueOf(sums[n][tag], 2), row.get(2), "sum of group " + row);
            assertEquals(counts[n][tag], row.get(3));
            groups++;
        }
        assertEquals(5 * 14, groups);
    }

    @Test
    void denseJoinByCodeAndRowId() {
        ScanNode probe = new ScanNode(fact, List.of(ScanColumn.value(0), new ScanColumn(1, ScanColumn.Mode.CODE),
                ScanColumn.value(1)), bool(Op.LT, col(0, DataType.BIGINT), lit(10, DataType.BIGINT)));
        ScanNode build = new ScanNode(nation, List.of(new ScanColumn(-1, ScanColumn.Mode.ROW_ID), ScanColumn.value(1)),
                bool(Op.NE, col(1, DataType.VARCHAR), Plans.str("n3")));
        HashJoinNode join = new HashJoinNode(probe, build, JoinKind.INNER, new int[] {1}, new int[] {0}, null, true, 5);
        List<List<Object>> r = executor.collect(new SortNode(join, List.of(new SortKey(0, false, false)), 0, -1)).rows();
        assertEquals(8, r.size()); // ids 2 and 7 point to n3, which the build filter removed
        assertEquals(List.of(0L, 0, 10, 0, "n1"), r.get(0));
        assertEquals(List.of(4L, 4, 50, 4, "n5"), r.get(3));
    }

    @Test
    void chainedDenseJoinsFilterTheScanAndReadOnlyWhatIsUsed() {
        // Two dense joins on the same code: the outer one's build keeps n1 and n2, the inner one's all but n3.
        ScanNode probe = new ScanNode(fact, List.of(ScanColumn.value(0), new ScanColumn(1, ScanColumn.Mode.CODE),
                ScanColumn.value(1), ScanColumn.value(2), ScanColumn.value(3)), null);
        ScanNode notN3 = new ScanNode(nation, List.of(new ScanColumn(-1, ScanColumn.Mode.ROW_ID), ScanColumn.value(1)),
                bool(Op.NE, col(1, DataType.VARCHAR), Plans.str("n3")));
        ScanNode n1n2 = new ScanNode(nation, List.of(new ScanColumn(-1, ScanColumn.Mode.ROW_ID), ScanColumn.value(1)),
                bool(Op.IN, col(1, DataType.VARCHAR), Plans.str("n1"), Plans.str("n2")));
        HashJoinNode inner = new HashJoinNode(probe, notN3, JoinKind.INNER, new int[] {1}, new int[] {0}, null, true, 5);
        HashJoinNode outer = new HashJoinNode(inner, n1n2, JoinKind.INNER, new int[] {1}, new int[] {0}, null, true, 5);
        AggregateNode agg = new AggregateNode(outer, new int[] {8}, List.of(
                new AggCall(Function.COUNT_STAR, -1, false, -1, "n", DataType.BIGINT, false),
                new AggCall(Function.SUM, 3, false, -1, "amount", DEC, false)));
        List<List<Object>> r = executor.collect(new SortNode(agg, List.of(new SortKey(0, false, false)), 0, -1)).rows();
        long[] count = new long[2];
        long[] cents = new long[2];
        for (int i = 0; i < FACT_ROWS; i++) {
            int n = (int) (nationKey(i) / 10) - 1;
            if (n < 2) {
                count[n]++;
                cents[n] += amount(i);
            }
        }
        assertEquals(List.of(List.of("n1", count[0], BigDecimal.valueOf(cents[0], 2)),
                List.of("n2", count[1], BigDecimal.valueOf(cents[1], 2))), r);
    }

    static ValuesNode labels() {
        List<Field> f = List.of(new Field("k", DataType.INTEGER, false), new Field("limit", DEC, false));
        return new ValuesNode(f, List.of(List.of(1L, 500L), List.of(2L, 100L), List.of(2L, 300L), List.of(4L, 0L)));
    }

    static PlanNode smallFact() {
        return scan(fact, bool(Op.LT, col(0, DataType.BIGINT), lit(6, DataType.BIGINT)), 0, 2);
    }

    @Test
    void aJoinWhoseMatchesOutgrowABatchStreamsThemInPieces() {
        // Each of 4096 probe rows matches 400 build rows (ids below 2000 sharing its nation).
        ScanNode probe = scan(fact, bool(Op.LT, col(0, DataType.BIGINT), lit(4096, DataType.BIGINT)), 0, 1);
        ScanNode build = scan(fact, bool(Op.LT, col(0, DataType.BIGINT), lit(2000, DataType.BIGINT)), 0, 1);
        HashJoinNode inner = new HashJoinNode(probe, build, JoinKind.INNER, new int[] {1}, new int[] {1}, null, false, 0);
        AtomicLong rows = new AtomicLong();
        AtomicLong largest = new AtomicLong();
        executor.run(inner, new QueryContext(), b -> {
            rows.addAndGet(b.rows());
            largest.accumulateAndGet(b.rows(), Math::max);
        });
        assertEquals(4096L * 400, rows.get());
        assertTrue(largest.get() <= 4 * Batch.ROWS, "a batch of " + largest.get() + " rows");
        // LEFT with a residual no pair of an odd probe id passes: those rows come out padded, once.
        Expr evenProbe = bool(Op.EQ, call(Op.MOD, DataType.BIGINT, col(0, DataType.BIGINT), lit(2, DataType.BIGINT)),
                lit(0, DataType.BIGINT));
        HashJoinNode left = new HashJoinNode(probe, build, JoinKind.LEFT, new int[] {1}, new int[] {1}, evenProbe, false, 0);
        AtomicLong leftRows = new AtomicLong();
        executor.run(left, new QueryContext(), b -> leftRows.addAndGet(b.rows()));
        assertEquals(2048L * 400 + 2048, leftRows.get());
    }

    @Test
    void leftJoinKeepsUnmatchedProbeRowsWithNulls() {
        HashJoinNode join = new HashJoinNode(smallFact(), labels(), JoinKind.LEFT, new int[] {0}, new int[] {0}, null, false, 0);
        List<List<Object>> r = executor.collect(new SortNode(join, List.of(new SortKey(0, false, false),
                new SortKey(3, false, false)), 0, -1)).rows();
        assertEquals(Arrays.asList(0L, new BigDecimal("0.00"), null, null), r.get(0));
        assertEquals(List.of(1L, new BigDecimal("0.01"), 1, new BigDecimal("5.00")), r.get(1));
        assertEquals(List.of(2L, new BigDecimal("0.02"), 2, new BigDecimal("1.00")), r.get(2));
        assertEquals(List.of(2L, new BigDecimal("0.02"), 2, new BigDecimal("3.00")), r.get(3));
        assertEquals(7, r.size());
    }

    @Test
    void semiAndAntiJoinsWithResidual() {
        // residual: probe amount (cents = id) * 100 < build limit, i.e. the pair passes when id*1.00 < limit.
        Expr residual = bool(Op.LT, call(Op.MULTIPLY, DEC, col(1, DEC), lit(100, DataType.INTEGER)), col(3, DEC));
        for (boolean markProbe : new boolean[] {false, true}) {
            HashJoinNode semi = new HashJoinNode(smallFact(), labels(), JoinKind.SEMI, new int[] {0}, new int[] {0},
                    residual, false, 0, markProbe);
            HashJoinNode anti = new HashJoinNode(smallFact(), labels(), JoinKind.ANTI, new int[] {0}, new int[] {0},
                    residual, false, 0, markProbe);
            // id 1: 1.00 < 5.00 yes; id 2: 2.00 < 1.00 no, 2.00 < 3.00 yes; id 4: 4.00 < 0 no.
            assertEquals(List.of(1L, 2L), ids(semi), "markProbe " + markProbe);
            assertEquals(List.of(0L, 3L, 4L, 5L), ids(anti), "markProbe " + markProbe);
        }
    }

    @Test
    void markingProbeRowsByDenseCodes() {
        // nation rows (but n3) marked by the fact rows that refer to them, from the last chunk, with amount >= 9.97:
        // ids 149997..149999 refer to n3, n4, n5.
        ScanNode nations = new ScanNode(nation, List.of(new ScanColumn(-1, ScanColumn.Mode.ROW_ID), ScanColumn.value(1)),
                bool(Op.NE, col(1, DataType.VARCHAR), Plans.str("n3")));
        ScanNode facts = new ScanNode(fact, List.of(new ScanColumn(1, ScanColumn.Mode.CODE), ScanColumn.value(2),
                ScanColumn.value(0)), bool(Op.GE, col(2, DataType.BIGINT), lit(FACT_ROWS - 5, DataType.BIGINT)));
        Expr residual = bool(Op.GE, col(3, DEC), lit(997, DEC));
        HashJoinNode semi = new HashJoinNode(nations, facts, JoinKind.SEMI, new int[] {0}, new int[] {0}, residual, true, 5, true);
        HashJoinNode anti = new HashJoinNode(nations, facts, JoinKind.ANTI, new int[] {0}, new int[] {0}, residual, true, 5, true);
        assertEquals(List.of(3, 4), ids(semi));
        assertEquals(List.of(0, 1), ids(anti));
    }

    @Test
    void onlySemiAndAntiJoinsMarkTheirProbeSide() {
        assertThrows(IllegalArgumentException.class, () -> new HashJoinNode(smallFact(), labels(), JoinKind.INNER,
                new int[] {0}, new int[] {0}, null, false, 0, true));
    }

    private static Expr call(Op op, DataType t, Expr... args) {
        return Plans.call(op, t, args);
    }

    private static List<Object> ids(PlanNode p) {
        return executor.collect(new SortNode(p, List.of(new SortKey(0, false, false)), 0, -1)).rows().stream()
                .map(r -> r.get(0)).toList();
    }

    @Test
    void crossJoinWithScalarSubqueryResult() {
        AggregateNode max = new AggregateNode(smallFact(), new int[0], List.of(
                new AggCall(Function.MAX, 1, false, -1, "m", DEC, true)));
        HashJoinNode cross = new HashJoinNode(smallFact(), max, JoinKind.INNER, new int[0], new int[0],
                bool(Op.EQ, col(1, DEC), col(2, DEC)), false, 0);
        assertEquals(List.of(List.of(5L, new BigDecimal("0.05"), new BigDecimal("0.05"))), executor.collect(cross).rows());
    }

    @Test
    void zoneMapsSkipChunksOutsideTheFilterRange() {
        QueryContext ctx = new QueryContext();
        PlanNode p = scan(fact, bool(Op.AND, bool(Op.GE, col(0, DataType.BIGINT), lit(70_000, DataType.BIGINT)),
                bool(Op.LT, col(0, DataType.BIGINT), lit(70_010, DataType.BIGINT))), 0);
        AtomicInteger rows = new AtomicInteger();
        executor.run(p, ctx, b -> rows.addAndGet(b.rows()));
        assertEquals(10, rows.get());
        assertEquals(1, ctx.chunksScanned());
        assertEquals(2, ctx.chunksSkipped());
    }

    @Test
    void cancellationStopsTheQuery() {
        QueryContext ctx = new QueryContext();
        AtomicInteger batches = new AtomicInteger();
        assertThrows(QueryCancelledException.class, () -> executor.run(scan(fact, 0, 1), ctx, b -> {
            batches.incrementAndGet();
            ctx.cancel();
        }));
        assertTrue(batches.get() < FACT_ROWS / Batch.ROWS, "stopped after " + batches.get() + " batches");
        QueryContext pre = new QueryContext();
        pre.cancel();
        assertThrows(QueryCancelledException.class, () -> executor.run(scan(fact, 0), pre, b -> { }));
    }

    @Test
    void resultsStreamAsBatchesAndExportToArrow() {
        PlanNode p = scan(fact, bool(Op.LT, col(0, DataType.BIGINT), lit(3, DataType.BIGINT)), 0, 1, 2, 3);
        List<Batch> batches = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        executor.run(p, new QueryContext(), new BatchSink() {
            @Override
            public void start(List<Field> f) {
                fields.addAll(f);
            }

            @Override
            public void accept(Batch batch) {
                batches.add(batch);
            }
        });
        assertEquals(1, batches.size());
        try (RootAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = ArrowBatches.toVectorSchemaRoot(fields, batches.get(0), allocator)) {
            assertEquals(3, root.getRowCount());
            assertEquals(20, root.getVector("nation").getObject(1));
            assertEquals(new BigDecimal("0.02"), ((DecimalVector) root.getVector("amount")).getObject(2));
            assertTrue(root.getVector("tag").isNull(0));
            assertEquals("t1", ((VarCharVector) root.getVector("tag")).getObject(1).toString());
        }
    }
}

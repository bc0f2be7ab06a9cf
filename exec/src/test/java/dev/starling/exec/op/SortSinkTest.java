package dev.starling.exec.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.SortNode.SortKey;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A top-N over many batches and two workers, long enough that each worker cuts its rows to the
 * best ones and then drops arriving rows by its last kept row's first key: the answer is the full
 * sort's first rows, for long and double keys in both directions, NULLs first or last, thousands of
 * rows tied on the first key, and an offset.
 */
class SortSinkTest {
    private static final List<Field> FIELDS = List.of(new Field("k", DataType.BIGINT, true),
            new Field("d", DataType.DOUBLE, true), new Field("id", DataType.BIGINT, false));

    @Test
    void aTopNEqualsTheFullSortsFirstRows() {
        List<Batch> batches = batches(new Random(5), 60, Batch.ROWS);
        for (int first = 0; first < 2; first++) {
            for (boolean descending : new boolean[] {false, true}) {
                for (boolean nullsFirst : new boolean[] {false, true}) {
                    List<SortKey> keys = List.of(new SortKey(first, descending, nullsFirst), new SortKey(2, false, false));
                    for (long[] window : new long[][] {{0, 10}, {5, 100}, {0, 3000}}) {
                        List<List<Object>> all = run(new SortNode(input(), keys, 0, -1), batches);
                        List<List<Object>> top = run(new SortNode(input(), keys, window[0], window[1]), batches);
                        assertEquals(all.subList((int) window[0], (int) (window[0] + window[1])), top,
                                "first key " + first + (descending ? " DESC" : "") + (nullsFirst ? " NULLS FIRST" : "")
                                        + " offset " + window[0] + " limit " + window[1]);
                    }
                }
            }
        }
    }

    private static ValuesNode input() {
        return new ValuesNode(FIELDS, List.of());
    }

    /** {@code batches} as two workers take them in turn. */
    private static List<List<Object>> run(SortNode node, List<Batch> batches) {
        SortSink sink = new SortSink(node);
        List<SortSink.Rows> locals = List.of(sink.createLocal(), sink.createLocal());
        for (int b = 0; b < batches.size(); b++) {
            sink.accept(locals.get(b % 2), batches.get(b));
        }
        sink.finish(locals);
        Batch result = sink.result();
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < result.rows(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < FIELDS.size(); c++) {
                row.add(result.column(c).value(r));
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * Keys in a narrow range (many ties), a NULL now and then, doubles with both zeros; ids unique
     * and in no order, so that a row arriving late may come before a tied one kept.
     */
    private static List<Batch> batches(Random random, int count, int rows) {
        List<Batch> out = new ArrayList<>();
        List<Long> shuffled = new ArrayList<>();
        for (long i = 0; i < (long) count * rows; i++) {
            shuffled.add(i);
        }
        java.util.Collections.shuffle(shuffled, random);
        int id = 0;
        for (int b = 0; b < count; b++) {
            long[] k = new long[rows];
            double[] d = new double[rows];
            long[] ids = new long[rows];
            boolean[] kNulls = new boolean[rows];
            boolean[] dNulls = new boolean[rows];
            for (int r = 0; r < rows; r++) {
                k[r] = random.nextInt(500) - 250;
                kNulls[r] = random.nextInt(97) == 0;
                d[r] = random.nextInt(50) == 0 ? (random.nextBoolean() ? -0.0 : 0.0) : random.nextGaussian();
                dNulls[r] = random.nextInt(89) == 0;
                ids[r] = shuffled.get(id++);
            }
            out.add(new Batch(new Vector[] {Vector.ofLongs(DataType.BIGINT, k, kNulls), Vector.ofDoubles(d, dNulls),
                    Vector.ofLongs(DataType.BIGINT, ids, null)}, rows));
        }
        return out;
    }
}

package dev.starling.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;

class ArrowBatchesTest {
    private static final List<Field> FIELDS = List.of(
            new Field("i", DataType.INTEGER, true), new Field("b", DataType.BIGINT, true),
            new Field("d", DataType.DOUBLE, true), new Field("m", DataType.decimal(15, 2), true),
            new Field("day", DataType.DATE, true), new Field("t", DataType.BOOLEAN, true),
            new Field("s", DataType.VARCHAR, true), new Field("n", DataType.BIGINT, false));

    /**
     * Batches of sizes that leave the validity bytes unaligned, with and without nulls, and strings
     * of two dictionaries (one with multi-byte entries), filled into one root in turn: every value
     * reads back from the Arrow vectors as the batches hold it.
     */
    @Test
    void everyTypeReadsBackAsTheBatchesHoldIt() {
        Random random = new Random(7);
        StrDict one = dict("", "alpha", "größe", "日本");
        StrDict two = dict("zeta", "eta");
        List<Batch> batches = List.of(batch(random, 5, one, true), batch(random, 13, two, false),
                batch(random, 0, one, true), batch(random, 70, two, true));
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = VectorSchemaRoot.create(ArrowBatches.schema(FIELDS), allocator)) {
            // the last: fewer rows than dictionary entries, which encodes the rows sent, not the dictionary
            for (List<Batch> expected : List.of(batches, batches.subList(1, 2), List.of(batch(random, 3, one, true)))) {
                ArrowBatches.fill(root, FIELDS, expected);
                int row = 0;
                for (Batch b : expected) {
                    for (int i = 0; i < b.rows(); i++, row++) {
                        for (int c = 0; c < FIELDS.size(); c++) {
                            assertEquals(b.column(c).value(i), read(root.getVector(c), FIELDS.get(c).type(), row),
                                    "row " + row + ", column " + FIELDS.get(c).name());
                        }
                    }
                }
                assertEquals(row, root.getRowCount());
            }
        }
    }

    private static Object read(FieldVector v, DataType type, int row) {
        Object o = v.getObject(row);
        if (o == null) {
            return null;
        }
        return switch (type.kind()) {
            case DATE -> LocalDate.ofEpochDay(((Number) o).longValue());
            case VARCHAR -> ((Text) o).toString();
            default -> o;
        };
    }

    private static Batch batch(Random random, int rows, StrDict strings, boolean nulls) {
        Vector[] columns = new Vector[FIELDS.size()];
        for (int c = 0; c < columns.length; c++) {
            DataType type = FIELDS.get(c).type();
            boolean[] isNull = nulls && FIELDS.get(c).nullable() ? new boolean[rows] : null;
            long[] longs = new long[rows];
            double[] doubles = new double[rows];
            for (int i = 0; i < rows; i++) {
                if (isNull != null) {
                    isNull[i] = random.nextInt(4) == 0;
                }
                longs[i] = switch (type.kind()) {
                    case INTEGER, DATE -> random.nextInt(40_000) - 20_000;
                    case BOOLEAN -> random.nextInt(2);
                    case VARCHAR -> random.nextInt(strings.size());
                    default -> random.nextLong() >> random.nextInt(64);
                };
                doubles[i] = random.nextGaussian();
            }
            columns[c] = switch (type.kind()) {
                case DOUBLE -> Vector.ofDoubles(doubles, isNull);
                case VARCHAR -> Vector.ofCodes(type, longs, isNull, strings);
                default -> Vector.ofLongs(type, longs, isNull);
            };
        }
        return new Batch(columns, rows);
    }

    private static StrDict dict(String... values) {
        StrDict.Builder b = new StrDict.Builder();
        for (String v : values) {
            b.add(v);
        }
        return b.build();
    }
}

package dev.starling.exec;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Converts result batches to Arrow record batches, the form Flight sends them in. */
public final class ArrowBatches {
    /** The most string bytes of one column that {@link #fill} gathers on the heap before copying them into the vector. */
    private static final int STAGED_BYTES = 64 << 20;
    private ArrowBatches() { }

    public static Schema schema(List<Field> fields) {
        List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
        for (Field f : fields) {
            out.add(new org.apache.arrow.vector.types.pojo.Field(f.name(),
                    new FieldType(f.nullable(), arrowType(f.type()), null), null));
        }
        return new Schema(out);
    }

    public static ArrowType arrowType(DataType t) {
        return switch (t.kind()) {
            case INTEGER -> new ArrowType.Int(32, true);
            case BIGINT -> new ArrowType.Int(64, true);
            case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> new ArrowType.Decimal(t.precision(), t.scale(), 128);
            case DATE -> new ArrowType.Date(DateUnit.DAY);
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case VARCHAR -> ArrowType.Utf8.INSTANCE;
        };
    }

    /**
     * The Starling type that holds the values of Arrow's {@code type}: the reverse of
     * {@link #arrowType}, and for a narrower type the wider one; empty for one Starling has not.
     */
    public static java.util.Optional<DataType> dataType(ArrowType type) {
        return java.util.Optional.ofNullable(switch (type) {
            // the narrower types whose every value the wider Starling type holds, as a load converts them
            case ArrowType.Int i when i.getBitWidth() < 32 || i.getIsSigned() && i.getBitWidth() == 32 -> DataType.INTEGER;
            case ArrowType.Int i when i.getBitWidth() == 32 || i.getIsSigned() && i.getBitWidth() == 64 -> DataType.BIGINT;
            case ArrowType.FloatingPoint f when f.getPrecision() != FloatingPointPrecision.HALF -> DataType.DOUBLE;
            case ArrowType.Decimal d -> DataType.decimal(d.getPrecision(), d.getScale());
            case ArrowType.Date d -> DataType.DATE;
            case ArrowType.Bool b -> DataType.BOOLEAN;
            case ArrowType.Utf8 u -> DataType.VARCHAR;
            case ArrowType.LargeUtf8 u -> DataType.VARCHAR;
            default -> null;
        });
    }

    /** A new root (the caller closes it) holding the batch's rows, with buffers from {@code allocator}. */
    public static VectorSchemaRoot toVectorSchemaRoot(List<Field> fields, Batch batch, BufferAllocator allocator) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema(fields), allocator);
        try {
            fill(root, fields, List.of(batch));
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
        return root;
    }

    /**
     * Replaces the contents of {@code root} (made from {@link #schema}) with the rows of
     * {@code batches}, one after the other. Column by column, sized once, values written straight
     * into the Arrow buffers and strings copied from their dictionary entries' UTF-8 bytes: value
     * by value through the vectors' setters, a large result's conversion took more time than its
     * scan.
     */
    public static void fill(VectorSchemaRoot root, List<Field> fields, List<Batch> batches) {
        int n = 0;
        for (Batch b : batches) {
            n += b.rows();
        }
        for (int c = 0; c < fields.size(); c++) {
            FieldVector target = root.getVector(c);
            target.clear();
            switch (fields.get(c).type().kind()) {
                case VARCHAR -> strings((VarCharVector) target, c, batches, n);
                case BOOLEAN -> booleans((BitVector) target, c, batches, n);
                default -> fixedWidth(fields.get(c).type().kind(), (BaseFixedWidthVector) target, c, batches, n);
            }
            target.setValueCount(n);
        }
        root.setRowCount(n);
    }

    private static void fixedWidth(DataType.Kind kind, BaseFixedWidthVector target, int c, List<Batch> batches, int n) {
        target.allocateNew(n);
        ArrowBuf values = target.getDataBuffer();
        int at = 0;
        for (Batch b : batches) {
            Vector v = b.column(c);
            int rows = b.rows();
            switch (kind) {
                case BIGINT -> {
                    long[] x = v.longs();
                    for (int i = 0; i < rows; i++) {
                        values.setLong((long) (at + i) * Long.BYTES, x[i]);
                    }
                }
                case INTEGER, DATE -> {
                    long[] x = v.longs();
                    for (int i = 0; i < rows; i++) {
                        values.setInt((long) (at + i) * Integer.BYTES, (int) x[i]);
                    }
                }
                case DOUBLE -> {
                    double[] x = v.doubles();
                    for (int i = 0; i < rows; i++) {
                        values.setDouble((long) (at + i) * Double.BYTES, x[i]);
                    }
                }
                // 128-bit two's complement, little-endian: the unscaled long and its sign word
                // (the vector's scale is the type's, so the stored long is the value as it is)
                case DECIMAL -> {
                    long[] x = v.longs();
                    for (int i = 0; i < rows; i++) {
                        long at16 = (long) (at + i) * DecimalVector.TYPE_WIDTH;
                        values.setLong(at16, x[i]);
                        values.setLong(at16 + Long.BYTES, x[i] >> 63);
                    }
                }
                default -> throw new IllegalArgumentException("not a fixed-width type: " + kind);
            }
            markValid(target.getValidityBuffer(), v.nulls(), at, rows);
            at += rows;
        }
    }

    private static void booleans(BitVector target, int c, List<Batch> batches, int n) {
        target.allocateNew(n);
        int at = 0;
        for (Batch b : batches) {
            Vector v = b.column(c);
            long[] x = v.longs();
            for (int i = 0; i < b.rows(); i++) {
                if (x[i] != 0 && !v.isNull(i)) {
                    BitVectorHelper.setBit(target.getDataBuffer(), at + i);
                }
            }
            markValid(target.getValidityBuffer(), v.nulls(), at, b.rows());
            at += b.rows();
        }
    }

    private static void strings(VarCharVector target, int c, List<Batch> batches, int n) {
        byte[][] values = new byte[n][];
        long bytes = 0;
        int at = 0;
        for (Batch b : batches) {
            Vector v = b.column(c);
            // a dictionary no larger than the rows sent is encoded whole, once; a larger one (a
            // column of comments) by the rows sent, as encoding it whole would cost more than they do
            byte[][] encoded = v.dict().size() <= n ? v.dict().utf8() : null;
            long[] codes = v.longs();
            for (int i = 0; i < b.rows(); i++) {
                if (!v.isNull(i)) {
                    int code = (int) codes[i];
                    byte[] s = encoded != null ? encoded[code] : v.dict().get(code).getBytes(StandardCharsets.UTF_8);
                    values[at + i] = s;
                    bytes += s.length;
                }
            }
            at += b.rows();
        }
        target.allocateNew(Math.max(bytes, 1), n);
        at = 0;
        for (Batch b : batches) {
            markValid(target.getValidityBuffer(), b.column(c).nulls(), at, b.rows());
            at += b.rows();
        }
        ArrowBuf offsets = target.getOffsetBuffer();
        // short strings are gathered on the heap and copied over at once (a copy into off-heap
        // memory per string cost more than the string)
        byte[] staged = bytes <= STAGED_BYTES ? new byte[(int) bytes] : null;
        long end = 0;
        for (int i = 0; i < n; i++) {
            byte[] s = values[i];
            if (s != null) {
                if (staged != null) {
                    System.arraycopy(s, 0, staged, (int) end, s.length);
                } else {
                    target.getDataBuffer().setBytes(end, s);
                }
                end += s.length;
            }
            offsets.setInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH, (int) end);
        }
        if (staged != null) {
            target.getDataBuffer().setBytes(0, staged);
        }
        // the offsets are written: setValueCount must not fill them in as gaps
        target.setLastSet(n - 1);
    }

    /** Sets the validity bits of rows {@code at}.. {@code at + rows - 1} but the null ones (whole bytes where none is). */
    private static void markValid(ArrowBuf validity, boolean[] nulls, int at, int rows) {
        int i = 0;
        if (nulls == null) {
            while (i < rows && (at + i) % Byte.SIZE != 0) {
                BitVectorHelper.setBit(validity, at + i++);
            }
            int whole = (rows - i) / Byte.SIZE;
            validity.setOne((at + i) / Byte.SIZE, whole);
            i += whole * Byte.SIZE;
        }
        for (; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                BitVectorHelper.setBit(validity, at + i);
            }
        }
    }
}

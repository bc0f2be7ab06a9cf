package dev.starling.exec;

import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Converts result batches to Arrow record batches, the form Flight sends them in. */
public final class ArrowBatches {
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

    /** A new root (the caller closes it) holding the batch's rows, with buffers from {@code allocator}. */
    public static VectorSchemaRoot toVectorSchemaRoot(List<Field> fields, Batch batch, BufferAllocator allocator) {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema(fields), allocator);
        try {
            fill(root, fields, batch);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
        return root;
    }

    /** Replaces the contents of {@code root} (made from {@link #schema}) with the batch's rows. */
    public static void fill(VectorSchemaRoot root, List<Field> fields, Batch batch) {
        int n = batch.rows();
        root.allocateNew();
        for (int c = 0; c < fields.size(); c++) {
            copy(fields.get(c).type(), batch.column(c), root.getVector(c), n);
        }
        root.setRowCount(n);
    }

    private static void copy(DataType type, Vector v, FieldVector target, int n) {
        for (int i = 0; i < n; i++) {
            if (v.isNull(i)) {
                target.setNull(i);
                continue;
            }
            switch (type.kind()) {
                case INTEGER -> ((IntVector) target).setSafe(i, (int) v.getLong(i));
                case BIGINT -> ((BigIntVector) target).setSafe(i, v.getLong(i));
                case DOUBLE -> ((Float8Vector) target).setSafe(i, v.getDouble(i));
                // The vector's scale is the type's: the stored long is the unscaled value as it is.
                case DECIMAL -> ((DecimalVector) target).setSafe(i, v.getLong(i));
                case DATE -> ((DateDayVector) target).setSafe(i, (int) v.getLong(i));
                case BOOLEAN -> ((BitVector) target).setSafe(i, v.getLong(i) != 0 ? 1 : 0);
                case VARCHAR -> ((VarCharVector) target).setSafe(i, v.getString(i).getBytes(StandardCharsets.UTF_8));
            }
        }
        target.setValueCount(n);
    }
}

package dev.starling.server.flight;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sends the rows of a metadata call (catalogs, tables, keys, types) as one record batch in the
 * columns of Flight SQL's schema for it: strings, 32-bit and unsigned 8-bit integers, booleans and
 * bytes by position, {@code null} for NULL.
 */
final class MetadataRows {
    private MetadataRows() { }

    static void send(Schema schema, List<Object[]> rows, BufferAllocator allocator, ServerStreamListener listener) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            for (int r = 0; r < rows.size(); r++) {
                for (int c = 0; c < rows.get(r).length; c++) {
                    set(root.getVector(c), r, rows.get(r)[c]);
                }
            }
            root.setRowCount(rows.size());
            listener.start(root);
            listener.putNext();
            listener.completed();
        }
    }

    private static void set(FieldVector v, int row, Object value) {
        if (value == null) {
            v.setNull(row);
            return;
        }
        switch (v) {
            case VarCharVector s -> s.setSafe(row, value.toString().getBytes(StandardCharsets.UTF_8));
            case VarBinaryVector b -> b.setSafe(row, (byte[]) value);
            case IntVector i -> i.setSafe(row, (Integer) value);
            case UInt1Vector u -> u.setSafe(row, (Integer) value);
            case BitVector b -> b.setSafe(row, (Boolean) value ? 1 : 0);
            default -> throw new IllegalStateException("unexpected metadata column " + v.getField());
        }
    }
}

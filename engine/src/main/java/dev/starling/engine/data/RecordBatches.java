package dev.starling.engine.data;

import java.util.function.BooleanSupplier;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Arrow record batches read one after another into one root: an Arrow IPC file's, or a client's
 * upload over Flight SQL.
 */
public interface RecordBatches {
    /** The root each batch is read into; its schema is known before the first batch. */
    VectorSchemaRoot root();

    /** Reads the next batch into {@link #root()}; false when there is none. */
    boolean next();

    /** Batches that {@code next} reads into {@code root}, saying whether it read one. */
    static RecordBatches of(VectorSchemaRoot root, BooleanSupplier next) {
        return new RecordBatches() {
            @Override
            public VectorSchemaRoot root() {
                return root;
            }

            @Override
            public boolean next() {
                return next.getAsBoolean();
            }
        };
    }
}

package dev.starling.server.flight;

import dev.starling.exec.ArrowValues;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Reads the parameter rows a client sends for a prepared statement as plain Java values. */
final class ParameterRows {
    private ParameterRows() { }

    static List<List<Object>> read(FlightStream stream) {
        List<List<Object>> rows = new ArrayList<>();
        while (stream.next()) {
            VectorSchemaRoot root = stream.getRoot();
            for (int r = 0; r < root.getRowCount(); r++) {
                List<Object> row = new ArrayList<>();
                for (FieldVector v : root.getFieldVectors()) {
                    row.add(ArrowValues.value(v, r));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}

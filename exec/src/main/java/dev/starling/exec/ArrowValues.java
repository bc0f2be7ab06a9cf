package dev.starling.exec;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;

/**
 * Arrow vectors' values as the plain Java values of a {@link QueryResult}: the reverse of
 * {@link ArrowBatches}, for rows that arrive as Arrow (a prepared statement's parameters, a
 * client's results).
 */
public final class ArrowValues {
    private ArrowValues() { }

    /** The rows {@code root} holds now, each a list of its columns' values ({@link #value}). */
    public static List<List<Object>> rows(VectorSchemaRoot root) {
        List<FieldVector> vectors = root.getFieldVectors();
        List<List<Object>> rows = new ArrayList<>(root.getRowCount());
        for (int r = 0; r < root.getRowCount(); r++) {
            List<Object> row = new ArrayList<>(vectors.size());
            for (FieldVector v : vectors) {
                row.add(value(v, r));
            }
            rows.add(row);
        }
        return rows;
    }

    /** Row {@code row} of {@code vector}: null, a LocalDate for a day, a String for text, else Arrow's own Java value. */
    public static Object value(FieldVector vector, int row) {
        if (vector.isNull(row)) {
            return null;
        }
        if (vector instanceof DateDayVector days) {
            return LocalDate.ofEpochDay(days.get(row));
        }
        // numbers, booleans and decimals come as their Java types
        Object value = vector.getObject(row);
        return value instanceof Text text ? text.toString() : value;
    }
}

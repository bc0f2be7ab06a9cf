package dev.starling.server.flight;

import dev.starling.exec.ArrowValues;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightStream;

/** Reads the parameter rows a client sends for a prepared statement as plain Java values. */
final class ParameterRows {
    private ParameterRows() { }

    static List<List<Object>> read(FlightStream stream) {
        List<List<Object>> rows = new ArrayList<>();
        while (stream.next()) {
            rows.addAll(ArrowValues.rows(stream.getRoot()));
        }
        return rows;
    }
}

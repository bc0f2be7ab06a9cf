package dev.starling.server.flight;

import dev.starling.exec.ArrowBatches;
import dev.starling.exec.plan.Field;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schema of a result or a table as the server sends it: each field carries Flight SQL's
 * column metadata (type name, precision, scale), which JDBC's ResultSetMetaData and a tool's
 * column list read.
 */
final class ResultSchema {
    private ResultSchema() {
    }

    static Schema of(List<Field> fields) {
        List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
        for (Field f : fields) {
            DataType type = f.type();
            FlightSqlColumnMetadata metadata = new FlightSqlColumnMetadata.Builder()
                    .typeName(type.kind().name())
                    .precision(TypeMetadata.precision(type))
                    .scale(type.scale())
                    .isAutoIncrement(false)
                    .isCaseSensitive(type.kind() == DataType.Kind.VARCHAR)
                    .isReadOnly(true)
                    .isSearchable(true)
                    .build();
            out.add(new org.apache.arrow.vector.types.pojo.Field(f.name(),
                    new FieldType(f.nullable(), ArrowBatches.arrowType(type), null, metadata.getMetadataMap()), null));
        }
        return new Schema(out);
    }
}

package dev.starling.server.flight;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.memory.BufferAllocator;

/** Starling's column types as Flight SQL's GetXdbcTypeInfo describes them (JDBC's getTypeInfo). */
final class TypeMetadata {
    private static final int NULLABLE = 1;
    private static final int SEARCHABLE = 3;

    /** name, JDBC type, column size, literal prefix and suffix, case sensitive, exact (fixed scale), min and max scale, radix. */
    private static final List<Object[]> TYPES = List.of(
            type("BOOLEAN", Types.BOOLEAN, 1, null, false, true, null, null, null),
            type("INTEGER", Types.INTEGER, 10, null, false, true, 0, 0, 10),
            type("BIGINT", Types.BIGINT, 19, null, false, true, 0, 0, 10),
            type("DECIMAL", Types.DECIMAL, 18, null, false, true, 0, 18, 10),
            type("DOUBLE", Types.DOUBLE, 15, null, false, false, null, null, 2),
            type("VARCHAR", Types.VARCHAR, Integer.MAX_VALUE, "'", true, false, null, null, null),
            type("DATE", Types.DATE, 10, "DATE '", false, true, null, null, null));

    private final BufferAllocator allocator;

    TypeMetadata(BufferAllocator allocator) {
        this.allocator = allocator;
    }

    /** All types, or those of JDBC type {@code dataType} when it is given. */
    void types(Integer dataType, ServerStreamListener listener) {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] t : TYPES) {
            if (dataType == null || dataType.equals(t[1])) {
                rows.add(t);
            }
        }
        MetadataRows.send(Schemas.GET_TYPE_INFO_SCHEMA, rows, allocator, listener);
    }

    private static Object[] type(String name, int jdbcType, int size, String prefix, boolean caseSensitive,
                                 boolean exact, Integer minScale, Integer maxScale, Integer radix) {
        String suffix = prefix == null ? null : "'";
        return new Object[] {name, jdbcType, size, prefix, suffix, null, NULLABLE, caseSensitive, SEARCHABLE,
                radix == null ? null : false, exact, false, name, minScale, maxScale, jdbcType, null, radix, null};
    }
}

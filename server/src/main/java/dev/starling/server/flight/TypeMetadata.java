package dev.starling.server.flight;

import dev.starling.storage.DataType;
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
            type(DataType.Kind.BOOLEAN, Types.BOOLEAN, null, false, true, null, null, null),
            type(DataType.Kind.INTEGER, Types.INTEGER, null, false, true, 0, 0, 10),
            type(DataType.Kind.BIGINT, Types.BIGINT, null, false, true, 0, 0, 10),
            type(DataType.Kind.DECIMAL, Types.DECIMAL, null, false, true, 0, 18, 10),
            type(DataType.Kind.DOUBLE, Types.DOUBLE, null, false, false, null, null, 2),
            type(DataType.Kind.VARCHAR, Types.VARCHAR, "'", true, false, null, null, null),
            type(DataType.Kind.DATE, Types.DATE, "DATE '", false, true, null, null, null));

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

    /**
     * The most digits (or characters, days as digits of a date) a value of {@code kind} can have:
     * the precision the driver reports for a type with none declared.
     */
    static int columnSize(DataType.Kind kind) {
        return switch (kind) {
            case BOOLEAN -> 1;
            case INTEGER, DATE -> 10;
            case BIGINT -> 19;
            case DECIMAL -> 18;
            case DOUBLE -> 15;
            case VARCHAR -> Integer.MAX_VALUE;
        };
    }

    /** The precision of values of {@code type}: a DECIMAL's or VARCHAR's declared one, else its kind's size. */
    static int precision(DataType type) {
        return type.precision() > 0 ? type.precision() : columnSize(type.kind());
    }

    private static Object[] type(DataType.Kind kind, int jdbcType, String prefix, boolean caseSensitive,
                                 boolean exact, Integer minScale, Integer maxScale, Integer radix) {
        String name = kind.name();
        int size = columnSize(kind);
        String suffix = prefix == null ? null : "'";
        return new Object[] {name, jdbcType, size, prefix, suffix, null, NULLABLE, caseSensitive, SEARCHABLE,
                radix == null ? null : false, exact, false, name, minScale, maxScale, jdbcType, null, radix, null};
    }
}

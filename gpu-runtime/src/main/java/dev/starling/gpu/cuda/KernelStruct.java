package dev.starling.gpu.cuda;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * A struct that the host writes and kernels read: defined once, here, as its fields with their C
 * types; Java writes it through {@link #layout()} and the kernels get its C definition from
 * {@link #definition()} (in the generated header {@code structs.cuh}), so the two cannot drift.
 * {@code alignment}: the struct's alignment in bytes (16 for one read in a single vector load).
 */
public record KernelStruct(String name, int alignment, List<Field> fields) {
    /** A field: its name, its C type, and its Java layout (of the same size). */
    public record Field(String name, String cType, ValueLayout layout) { }

    public static Field int64(String name) {
        return new Field(name, "long long", ValueLayout.JAVA_LONG);
    }

    public static Field int32(String name) {
        return new Field(name, "int", ValueLayout.JAVA_INT);
    }

    public static Field uint32(String name) {
        return new Field(name, "unsigned int", ValueLayout.JAVA_INT);
    }

    /** A device address, of a {@code cType} (e.g. {@code const Tuple*}). */
    public static Field pointer(String name, String cType) {
        return new Field(name, cType, ValueLayout.JAVA_LONG);
    }

    /** The struct as Java lays it out: fields in order, no padding but what they name, little-endian as the GPU. */
    public StructLayout layout() {
        MemoryLayout[] members = new MemoryLayout[fields.size()];
        for (int i = 0; i < members.length; i++) {
            Field f = fields.get(i);
            members[i] = f.layout().withOrder(java.nio.ByteOrder.LITTLE_ENDIAN).withName(f.name());
        }
        StructLayout layout = MemoryLayout.structLayout(members).withName(name);
        if (layout.byteSize() % alignment != 0) {
            throw new IllegalStateException(name + " is " + layout.byteSize() + " bytes, not a multiple of " + alignment);
        }
        return layout;
    }

    public long bytes() {
        return layout().byteSize();
    }

    /** A handle on field {@code field} of element i of an array of these: {@code get/set(segment, 0L, i)}. */
    public VarHandle arrayField(String field) {
        return layout().arrayElementVarHandle(MemoryLayout.PathElement.groupElement(field));
    }

    /** The C definition. */
    public String definition() {
        StringBuilder c = new StringBuilder("struct ");
        if (alignment > 8) {
            c.append("__align__(").append(alignment).append(") ");
        }
        c.append(name).append(" {\n");
        for (Field f : fields) {
            c.append("    ").append(f.cType()).append(' ').append(f.name()).append(";\n");
        }
        return c.append("};\n").toString();
    }
}

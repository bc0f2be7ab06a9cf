package dev.starling.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds a new table version row by row: set each column of the row, then {@link #endRow()}.
 * Foreign keys to a single-column integer primary key are translated to dense codes here, so a
 * key with no referenced row is rejected at load time.
 */
public final class TableBuilder {
    private final TableSchema schema;
    private final ColumnBuilder[] columns;
    private final boolean[] set;
    private long rows;

    public TableBuilder(TableSchema schema, Catalog catalog) {
        this(schema, catalog, null);
    }

    /** Continues {@code existing}: the new version holds its rows followed by the appended ones. */
    public static TableBuilder appendingTo(Table existing, Catalog catalog) {
        return new TableBuilder(existing.schema(), catalog, existing);
    }

    private TableBuilder(TableSchema schema, Catalog catalog, Table existing) {
        this.schema = schema;
        this.columns = new ColumnBuilder[schema.columns().size()];
        this.set = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            ColumnSchema cs = schema.column(i);
            DenseKeys dense = DenseKeys.resolve(schema, cs, catalog);
            columns[i] = new ColumnBuilder(cs, dense, existing == null ? null : existing.column(i));
        }
        if (existing != null) {
            rows = existing.rowCount();
        }
    }

    public TableSchema schema() {
        return schema;
    }

    public long rows() {
        return rows;
    }

    public void setNull(int col) {
        ColumnBuilder c = columns[col];
        if (!c.schema.nullable()) {
            throw new IllegalArgumentException("column " + c.schema.name() + " is NOT NULL");
        }
        c.putNull();
        mark(col);
    }

    /** INTEGER, BIGINT, DATE (days), DECIMAL (scaled), BOOLEAN (0/1) and foreign keys (the key value). */
    public void setLong(int col, long v) {
        columns[col].putLong(v);
        mark(col);
    }

    public void setDouble(int col, double v) {
        columns[col].putDouble(v);
        mark(col);
    }

    public void setString(int col, String v) {
        columns[col].putString(v);
        mark(col);
    }

    public void setBoolean(int col, boolean v) {
        setLong(col, v ? 1 : 0);
    }

    private void mark(int col) {
        if (set[col]) {
            throw new IllegalStateException("column " + schema.column(col).name() + " set twice in one row");
        }
        set[col] = true;
    }

    public void endRow() {
        for (int i = 0; i < set.length; i++) {
            if (!set[i]) {
                throw new IllegalStateException("column " + schema.column(i).name() + " not set in row " + (rows + 1));
            }
            set[i] = false;
        }
        rows++;
        if (rows % Table.CHUNK_ROWS == 0) {
            for (ColumnBuilder c : columns) {
                c.seal();
            }
        }
    }

    /** Discards a partly set row (a load that failed on one of its fields). */
    public void abandonRow() {
        for (int i = 0; i < set.length; i++) {
            if (set[i]) {
                columns[i].undo();
                set[i] = false;
            }
        }
    }

    /**
     * Writes rows {@code from} to {@code from + count} of column {@code col} as they are stored
     * (dictionary codes for strings, row indexes for dense-coded keys) into {@code values}, and
     * their NULL flags (1 = NULL) into {@code nulls} when it is not null: what a copy of the column
     * in device memory holds. Before {@link #build}, or after it.
     */
    public void copyRows(int col, long from, long count, MemorySegment values, MemorySegment nulls) {
        columns[col].copyRows(from, count, values, nulls);
    }

    public Table build() {
        List<Column> built = new ArrayList<>(columns.length);
        for (ColumnBuilder c : columns) {
            c.seal();
            built.add(c.finish());
        }
        return new Table(schema, built, rows);
    }

    /** Key value to referenced row index for a dense-coded foreign key. */
    private record DenseKeys(Column.DenseReference reference, LongIntMap rowOfKey) {
        static DenseKeys resolve(TableSchema schema, ColumnSchema column, Catalog catalog) {
            var fk = schema.singleColumnForeignKey(column.name());
            if (fk.isEmpty() || catalog == null || !column.type().isIntegral()) {
                return null;
            }
            var target = catalog.table(fk.get().referencedTable());
            if (target.isEmpty()) {
                throw new IllegalArgumentException("foreign key " + schema.name() + "." + column.name()
                        + " references missing table " + fk.get().referencedTable());
            }
            Table dim = target.get();
            String key = fk.get().referencedColumns().get(0);
            if (!dim.schema().primaryKey().equals(List.of(key)) || !dim.column(key).type().isIntegral()) {
                return null;
            }
            return new DenseKeys(new Column.DenseReference(dim.name(), key), cachedKeyIndex(dim, key, catalog));
        }

        /**
         * The last key index built per referenced table and key column, for as long as its version
         * lives and the heap can spare it: appends to a fact table build it once, not per statement.
         */
        private static final Map<String, CachedKeys> KEY_INDEXES = new ConcurrentHashMap<>();

        private record CachedKeys(WeakReference<Table> version, SoftReference<LongIntMap> index) { }

        private static LongIntMap cachedKeyIndex(Table dim, String key, Catalog catalog) {
            String name = dim.name() + "." + key;
            CachedKeys cached = KEY_INDEXES.get(name);
            LongIntMap index = cached == null || cached.version().get() != dim ? null : cached.index().get();
            if (index == null) {
                index = keyIndex(dim, key, catalog);
                KEY_INDEXES.put(name, new CachedKeys(new WeakReference<>(dim),
                        new SoftReference<>(index)));
            }
            return index;
        }

        static LongIntMap keyIndex(Table dim, String key, Catalog catalog) {
            long[] values = keyValues(dim, key, catalog);
            LongIntMap map = new LongIntMap(values.length);
            for (int row = 0; row < values.length; row++) {
                if (map.put(values[row], row) >= 0) {
                    throw new IllegalArgumentException("primary key " + dim.name() + "." + key
                            + " has duplicate value " + values[row]);
                }
            }
            return map;
        }

        /**
         * A key column's values in row order. A key that is itself a dense-coded foreign key stores
         * rows of the table it references, so its values are that table's key values at those rows.
         */
        private static long[] keyValues(Table table, String key, Catalog catalog) {
            Column k = table.column(key);
            long[] values = new long[Math.toIntExact(table.rowCount())];
            int row = 0;
            for (ColumnChunk chunk : k.chunks()) {
                for (int r = 0; r < chunk.rows(); r++) {
                    values[row++] = chunk.getAsLong(r);
                }
            }
            if (k.isDenseCoded()) {
                Column.DenseReference ref = k.denseReference();
                long[] referenced = keyValues(catalog.require(ref.table()), ref.keyColumn(), catalog);
                for (int i = 0; i < values.length; i++) {
                    values[i] = referenced[(int) values[i]];
                }
            }
            return values;
        }
    }

    /** Accumulates one column's current chunk off-heap. */
    private static final class ColumnBuilder {
        final ColumnSchema schema;
        /** A DECIMAL column's 10^precision: no unscaled value reaches it in magnitude. */
        final long decimalLimit;
        final DenseKeys dense;
        final DataType.Physical physical;
        final List<ColumnChunk> chunks = new ArrayList<>();
        /**
         * A VARCHAR column's: the dictionary appended to (null: a new table's), the codes of the
         * strings written so far, and those new to the dictionary in code order.
         */
        final Dictionary base;
        final Map<String, Integer> codes;
        final List<String> added;
        /** The statistics of the version appended to (null: a new table), and the first chunk holding appended rows. */
        final ColumnStats appendedTo;
        final int firstNewChunk;
        MemorySegment values;
        MemorySegment nulls;
        int rows;
        boolean anyNull;

        ColumnBuilder(ColumnSchema schema, DenseKeys dense, Column existing) {
            this.schema = schema;
            this.decimalLimit = schema.type().kind() == DataType.Kind.DECIMAL ? schema.type().unscaledLimit() : 0;
            this.dense = dense;
            this.physical = dense != null ? DataType.Physical.INT32 : schema.type().physical();
            boolean varchar = schema.type().kind() == DataType.Kind.VARCHAR;
            this.codes = varchar ? new HashMap<>() : null;
            this.added = varchar ? new ArrayList<>() : null;
            this.base = varchar && existing != null ? existing.dictionary() : null;
            allocate();
            if (existing != null) {
                List<ColumnChunk> old = existing.chunks();
                for (int i = 0; i < old.size(); i++) {
                    ColumnChunk c = old.get(i);
                    if (c.rows() == Table.CHUNK_ROWS) {
                        chunks.add(c);
                    } else {
                        reopen(c);
                    }
                }
            }
            this.appendedTo = existing == null ? null : existing.stats();
            this.firstNewChunk = chunks.size();
        }

        private void allocate() {
            values = Arena.ofAuto().allocate((long) Table.CHUNK_ROWS * physical.width, ColumnChunk.MEMORY_ALIGNMENT);
            nulls = Arena.ofAuto().allocate(Table.CHUNK_ROWS, ColumnChunk.MEMORY_ALIGNMENT);
            rows = 0;
            anyNull = false;
        }

        private void reopen(ColumnChunk partial) {
            MemorySegment.copy(partial.values(), 0, values, 0, (long) partial.rows() * physical.width);
            if (partial.nulls() != null) {
                MemorySegment.copy(partial.nulls(), 0, nulls, 0, partial.rows());
                anyNull = true;
            }
            rows = partial.rows();
        }

        void putNull() {
            nulls.set(ValueLayout.JAVA_BYTE, rows, (byte) 1);
            anyNull = true;
            switch (physical) {
                case INT8 -> values.set(ValueLayout.JAVA_BYTE, rows, (byte) 0);
                case INT32 -> values.setAtIndex(ValueLayout.JAVA_INT, rows, 0);
                case INT64 -> values.setAtIndex(ValueLayout.JAVA_LONG, rows, 0L);
                case FLOAT64 -> values.setAtIndex(ValueLayout.JAVA_DOUBLE, rows, 0.0);
            }
            rows++;
        }

        void putLong(long v) {
            if (dense != null) {
                int code = dense.rowOfKey.get(v);
                if (code < 0) {
                    throw new IllegalArgumentException(schema.name() + "=" + v + " has no match in "
                            + dense.reference.table() + "." + dense.reference.keyColumn());
                }
                values.setAtIndex(ValueLayout.JAVA_INT, rows, code);
            } else {
                switch (schema.type().kind()) {
                    case INTEGER, DATE -> {
                        if (v != (int) v) {
                            throw new IllegalArgumentException(schema.name() + ": " + v + " is out of range for "
                                    + schema.type());
                        }
                        values.setAtIndex(ValueLayout.JAVA_INT, rows, (int) v);
                    }
                    case BIGINT -> values.setAtIndex(ValueLayout.JAVA_LONG, rows, v);
                    case DECIMAL -> {
                        if (v >= decimalLimit || v <= -decimalLimit) {
                            throw new IllegalArgumentException(schema.name() + ": "
                                    + java.math.BigDecimal.valueOf(v, schema.type().scale()).toPlainString()
                                    + " has more digits than " + schema.type() + " holds");
                        }
                        values.setAtIndex(ValueLayout.JAVA_LONG, rows, v);
                    }
                    case BOOLEAN -> values.set(ValueLayout.JAVA_BYTE, rows, (byte) (v != 0 ? 1 : 0));
                    case DOUBLE -> values.setAtIndex(ValueLayout.JAVA_DOUBLE, rows, v);
                    case VARCHAR -> throw new IllegalArgumentException(schema.name() + " is VARCHAR, got a number");
                }
            }
            nulls.set(ValueLayout.JAVA_BYTE, rows, (byte) 0);
            rows++;
        }

        void putDouble(double v) {
            if (physical != DataType.Physical.FLOAT64) {
                throw new IllegalArgumentException(schema.name() + " is " + schema.type() + ", got a double");
            }
            values.setAtIndex(ValueLayout.JAVA_DOUBLE, rows, v);
            nulls.set(ValueLayout.JAVA_BYTE, rows, (byte) 0);
            rows++;
        }

        void putString(String v) {
            if (codes == null) {
                throw new IllegalArgumentException(schema.name() + " is " + schema.type() + ", got a string");
            }
            int length = schema.type().precision();
            // the text is not quoted: a loaded file's contents stay out of error messages
            if (length > 0 && v.length() > length && v.codePointCount(0, v.length()) > length) {
                throw new IllegalArgumentException(schema.name() + ": a string of " + v.codePointCount(0, v.length())
                        + " characters is longer than " + schema.type() + " holds");
            }
            Integer code = codes.get(v);
            if (code == null) {
                int known = base == null ? -1 : base.codeOf(v);
                code = known >= 0 ? known : (base == null ? 0 : base.size()) + added.size();
                if (known < 0) {
                    added.add(v);
                }
                codes.put(v, code);
            }
            values.setAtIndex(ValueLayout.JAVA_INT, rows, code);
            nulls.set(ValueLayout.JAVA_BYTE, rows, (byte) 0);
            rows++;
        }

        void copyRows(long from, long count, MemorySegment valuesOut, MemorySegment nullsOut) {
            int width = physical.width;
            for (long done = 0; done < count; ) {
                long row = from + done;
                int chunk = (int) (row >>> Table.CHUNK_SHIFT);
                int at = (int) (row & (Table.CHUNK_ROWS - 1));
                // every listed chunk is full until build() seals the last one; past them, the open one
                boolean open = chunk >= chunks.size();
                int filled = open ? rows : chunks.get(chunk).rows();
                MemorySegment v = open ? values : chunks.get(chunk).values();
                MemorySegment n = open ? nulls : chunks.get(chunk).nulls();
                long take = Math.min(filled - at, count - done);
                if (take <= 0 || open && chunk > chunks.size()) {
                    throw new IndexOutOfBoundsException("rows " + from + " to " + (from + count) + " of column "
                            + schema.name() + ": past the rows written");
                }
                MemorySegment.copy(v, (long) at * width, valuesOut, done * width, take * width);
                if (nullsOut != null) {
                    if (n == null) {
                        nullsOut.asSlice(done, take).fill((byte) 0);
                    } else {
                        MemorySegment.copy(n, at, nullsOut, done, take);
                    }
                }
                done += take;
            }
        }

        void undo() {
            rows--;
        }

        void seal() {
            if (rows == 0) {
                return;
            }
            MemorySegment v = values;
            MemorySegment n = anyNull ? nulls : null;
            if (rows < Table.CHUNK_ROWS) {
                Arena arena = Arena.ofAuto();
                v = arena.allocate((long) rows * physical.width, 8).copyFrom(values.asSlice(0, (long) rows * physical.width));
                n = anyNull ? arena.allocate(rows).copyFrom(nulls.asSlice(0, rows)) : null;
            }
            ColumnChunk chunk = new ColumnChunk(physical, rows, v, n, null);
            chunks.add(new ColumnChunk(physical, rows, v, n, ZoneMaps.of(chunk)));
            if (rows == Table.CHUNK_ROWS) {
                allocate();
            } else {
                rows = 0; // a partial chunk is only sealed by build(); the buffers are not reused after it
            }
        }

        Column finish() {
            Dictionary dict = added == null ? null : base == null ? Dictionary.of(added.toArray(new String[0]))
                    : base.extend(added);
            Column.DenseReference ref = dense == null ? null : dense.reference;
            Column c = new Column(schema, chunks, dict, ref, ColumnStats.empty());
            ColumnStats stats = appendedTo == null ? null
                    : ColumnStatsCollector.appended(appendedTo, c, firstNewChunk).orElse(null);
            return new Column(schema, chunks, dict, ref, stats != null ? stats : ColumnStatsCollector.collect(c));
        }
    }
}

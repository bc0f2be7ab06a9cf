package dev.starling.storage;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * Joins tables of one schema that were built independently (for instance in parallel, one
 * {@link TableBuilder} per part) into one table holding their rows in list order. Chunks are
 * repacked so that every chunk but the last is full, dictionaries are merged in first-occurrence
 * order, and zone maps and statistics are computed for the result: the table is the same as if
 * one builder had received all rows.
 */
public final class TableConcat {
    private TableConcat() { }

    public static Table concat(List<Table> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to concatenate");
        }
        TableSchema schema = parts.get(0).schema();
        for (Table part : parts) {
            if (!part.schema().equals(schema)) {
                throw new IllegalArgumentException("cannot concatenate table " + part.name() + " to table "
                        + schema.name() + ": the schemas differ");
            }
        }
        if (parts.size() == 1) {
            return parts.get(0);
        }
        long rows = parts.stream().mapToLong(Table::rowCount).sum();
        List<Column> columns = IntStream.range(0, schema.columns().size()).parallel()
                .mapToObj(i -> concatColumn(parts.stream().map(p -> p.column(i)).toList(), rows))
                .toList();
        return new Table(schema, columns, rows);
    }

    private static Column concatColumn(List<Column> parts, long rows) {
        Column first = parts.get(0);
        for (Column part : parts) {
            if (!Objects.equals(part.denseReference(), first.denseReference())) {
                throw new IllegalArgumentException("column " + first.name() + " is dense-coded against different tables");
            }
        }
        MergedDictionary dictionary = first.dictionary() == null ? null : new MergedDictionary(parts);
        ChunkWriter writer = new ChunkWriter(first.physical(), rows);
        for (int p = 0; p < parts.size(); p++) {
            int[] codes = dictionary == null ? null : dictionary.remaps.get(p);
            for (ColumnChunk chunk : parts.get(p).chunks()) {
                writer.append(chunk, codes);
            }
        }
        Dictionary dict = dictionary == null ? null : Dictionary.of(dictionary.values.toArray(new String[0]));
        Column unmeasured = new Column(first.schema(), writer.chunks, dict, first.denseReference(), ColumnStats.empty());
        return new Column(first.schema(), writer.chunks, dict, first.denseReference(),
                ColumnStatsCollector.collect(unmeasured));
    }

    /** The parts' dictionaries merged in part order, with each part's code translation (null where codes keep). */
    private static final class MergedDictionary {
        final List<String> values = new ArrayList<>();
        final List<int[]> remaps = new ArrayList<>();

        MergedDictionary(List<Column> parts) {
            Map<String, Integer> codes = HashMap.newHashMap(parts.stream().mapToInt(p -> p.dictionary().size()).sum());
            for (Column part : parts) {
                String[] own = part.dictionary().toArray();
                int[] remap = new int[own.length];
                boolean identity = true;
                for (int i = 0; i < own.length; i++) {
                    Integer code = codes.putIfAbsent(own[i], values.size());
                    if (code == null) {
                        code = values.size();
                        values.add(own[i]);
                    }
                    remap[i] = code;
                    identity &= code == i;
                }
                remaps.add(identity ? null : remap);
            }
        }
    }

    /**
     * Copies values into chunks of exactly {@link Table#CHUNK_ROWS} rows, the last one holding the
     * rest. The values of up to {@link #SLAB_CHUNKS} chunks are allocated at once and lie end to
     * end, as in a table file, so that the GPU backend copies a stretch of them in one transfer.
     */
    private static final class ChunkWriter {
        static final int SLAB_CHUNKS = 64;
        final DataType.Physical physical;
        final List<ColumnChunk> chunks = new ArrayList<>();
        long remaining;
        MemorySegment slab;
        long slabUsed;
        MemorySegment values;
        MemorySegment nulls;
        int capacity;
        int rows;

        ChunkWriter(DataType.Physical physical, long totalRows) {
            this.physical = physical;
            this.remaining = totalRows;
        }

        void append(ColumnChunk source, int[] codes) {
            int from = 0;
            while (from < source.rows()) {
                if (values == null) {
                    open();
                }
                int n = Math.min(source.rows() - from, capacity - rows);
                copy(source, from, n, codes);
                from += n;
                rows += n;
                if (rows == capacity) {
                    seal();
                }
            }
        }

        private void open() {
            capacity = (int) Math.min(Table.CHUNK_ROWS, remaining);
            long bytes = (long) capacity * physical.width;
            if (slab == null || slabUsed + bytes > slab.byteSize()) {
                slab = Arena.ofAuto().allocate(Math.min(remaining, (long) SLAB_CHUNKS * Table.CHUNK_ROWS) * physical.width,
                        ColumnChunk.MEMORY_ALIGNMENT);
                slabUsed = 0;
            }
            values = slab.asSlice(slabUsed, bytes);
            slabUsed += bytes;
            nulls = null;
            rows = 0;
        }

        private void copy(ColumnChunk source, int from, int n, int[] codes) {
            long width = physical.width;
            if (codes == null) {
                MemorySegment.copy(source.values(), from * width, values, rows * width, n * width);
            } else {
                for (int r = 0; r < n; r++) {
                    // A NULL's stored code is a placeholder that may not exist in the part's dictionary.
                    int code = source.isNull(from + r) ? 0 : codes[source.getInt(from + r)];
                    values.setAtIndex(ValueLayout.JAVA_INT, rows + r, code);
                }
            }
            if (source.nulls() != null) {
                if (nulls == null) {
                    nulls = Arena.ofAuto().allocate(capacity, ColumnChunk.MEMORY_ALIGNMENT);
                }
                MemorySegment.copy(source.nulls(), from, nulls, rows, n);
            }
        }

        private void seal() {
            ColumnChunk chunk = new ColumnChunk(physical, rows, values, nulls, null);
            chunks.add(new ColumnChunk(physical, rows, values, nulls, ZoneMaps.of(chunk)));
            remaining -= rows;
            values = null;
        }
    }
}

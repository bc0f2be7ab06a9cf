package dev.starling.storage;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that a new table version keeps its primary key before it is committed: the rows a write
 * added have no NULL in the key's columns, no two of them share a key, and none shares one with
 * the rows before (of those, only the chunks whose zone maps on the key's first column can hold a
 * new key are read). The planner trusts keys (dense joins, grouping by a key, IN): a write that
 * breaks one fails as a whole and changes nothing. Keys are compared as stored (dictionary codes
 * for strings, codes for dense foreign keys: equal codes mean equal values within one version).
 */
public final class PrimaryKeys {
    private PrimaryKeys() { }

    /** Throws {@link PrimaryKeyViolationException} unless the rows of {@code table} from {@code firstNew} on keep its key. */
    public static void check(Table table, long firstNew, Catalog catalog) {
        List<String> names = table.schema().primaryKey();
        if (names.isEmpty() || firstNew >= table.rowCount()) {
            return;
        }
        int[] columns = names.stream().mapToInt(n -> table.schema().indexOf(n)).toArray();
        NewKeys added = new NewKeys(table, columns, catalog);
        long row = 0;
        int chunkCount = table.column(columns[0]).chunks().size();
        for (int c = 0; c < chunkCount; c++) {
            int rows = table.column(columns[0]).chunks().get(c).rows();
            if (row + rows > firstNew) {
                for (int r = (int) Math.max(0, firstNew - row); r < rows; r++) {
                    added.add(c, r);
                }
            }
            row += rows;
        }
        row = 0;
        for (int c = 0; c < chunkCount && row < firstNew; c++) {
            ColumnChunk first = table.column(columns[0]).chunks().get(c);
            int rows = (int) Math.min(first.rows(), firstNew - row);
            if (first.zoneMap().mayContainRange(added.firstMin, added.firstMax)) {
                for (int r = 0; r < rows; r++) {
                    added.requireAbsent(c, r);
                }
            }
            row += first.rows();
        }
    }

    /**
     * The key words of the added rows, and the least and greatest of their first column; packed
     * into one long each (by the key columns' value ranges in the new version's statistics) where
     * they fit, so that a large load keeps a primitive set.
     */
    private static final class NewKeys {
        private final Table table;
        private final int[] columns;
        private final Catalog catalog;
        private final long[] min;
        private final long[] multipliers;
        private final LongIntMap packed;
        private final Set<Key> keys;
        private long firstMin = Long.MAX_VALUE;
        private long firstMax = Long.MIN_VALUE;

        NewKeys(Table table, int[] columns, Catalog catalog) {
            this.table = table;
            this.columns = columns;
            this.catalog = catalog;
            min = new long[columns.length];
            multipliers = new long[columns.length];
            long span = 1;
            for (int i = columns.length - 1; i >= 0 && span > 0; i--) {
                Column column = table.column(columns[i]);
                ColumnStats stats = column.stats();
                long range = column.physical() == DataType.Physical.FLOAT64 || stats == null ? 0
                        : ColumnStats.valuesBetween(stats.min(), stats.max());
                min[i] = stats == null ? 0 : stats.min();
                multipliers[i] = span;
                span = range <= 0 || span > (Long.MAX_VALUE >> 1) / range ? 0 : span * range;
            }
            packed = span > 0 ? new LongIntMap(16) : null;
            keys = span > 0 ? null : new HashSet<>();
        }

        void add(int chunk, int row) {
            long[] words = words(chunk, row, true);
            firstMin = Math.min(firstMin, words[0]);
            firstMax = Math.max(firstMax, words[0]);
            boolean fresh = packed != null ? packed.put(pack(words), 0) < 0 : keys.add(new Key(words));
            if (!fresh) {
                throw duplicate(words);
            }
        }

        void requireAbsent(int chunk, int row) {
            if (packed != null) {
                long number = 0;
                for (int i = 0; i < columns.length; i++) {
                    ColumnChunk c = table.column(columns[i]).chunks().get(chunk);
                    if (c.isNull(row)) {
                        return;
                    }
                    number += (c.getAsLong(row) - min[i]) * multipliers[i];
                }
                if (packed.get(number) < 0) {
                    return;
                }
            }
            long[] words = words(chunk, row, false);
            if (words != null && (packed != null || keys.contains(new Key(words)))) {
                throw duplicate(words);
            }
        }

        private long pack(long[] words) {
            long number = 0;
            for (int i = 0; i < words.length; i++) {
                number += (words[i] - min[i]) * multipliers[i];
            }
            return number;
        }

        /**
         * The key of a row: an added one may have no NULL in it; an earlier one with a NULL (written
         * before keys were enforced) cannot equal an added one and reads as null.
         */
        private long[] words(int chunk, int row, boolean added) {
            long[] words = new long[columns.length];
            for (int i = 0; i < columns.length; i++) {
                ColumnChunk c = table.column(columns[i]).chunks().get(chunk);
                if (c.isNull(row)) {
                    if (added) {
                        throw new PrimaryKeyViolationException("NULL in primary key column "
                                + table.column(columns[i]).name() + " of table " + table.name());
                    }
                    return null;
                }
                words[i] = c.physical() == DataType.Physical.FLOAT64 ? Double.doubleToLongBits(c.getDouble(row) + 0.0)
                        : c.getAsLong(row);
            }
            return words;
        }

        private PrimaryKeyViolationException duplicate(long[] words) {
            List<String> names = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < columns.length; i++) {
                Column column = table.column(columns[i]);
                names.add(column.name());
                values.add(text(column, words[i]));
            }
            return new PrimaryKeyViolationException("duplicate primary key (" + String.join(", ", names) + ") = ("
                    + String.join(", ", values) + ") in table " + table.name());
        }

        /** A stored key word as SQL shows its value (a dense foreign key's: the key at its code). */
        private String text(Column column, long word) {
            if (column.isDenseCoded()) {
                Column.DenseReference ref = column.denseReference();
                Column key = catalog.require(ref.table()).column(ref.keyColumn());
                return text(key, storedAt(key, word));
            }
            DataType type = column.type();
            return switch (type.kind()) {
                case VARCHAR -> "'" + column.dictionary().get((int) word) + "'";
                case DECIMAL -> BigDecimal.valueOf(word, type.scale()).toPlainString();
                case DATE -> "DATE '" + LocalDate.ofEpochDay(word) + "'";
                case DOUBLE -> Double.toString(Double.longBitsToDouble(word));
                case BOOLEAN -> word != 0 ? "TRUE" : "FALSE";
                default -> Long.toString(word);
            };
        }

        private static long storedAt(Column column, long row) {
            long at = row;
            for (ColumnChunk chunk : column.chunks()) {
                if (at < chunk.rows()) {
                    return chunk.getAsLong((int) at);
                }
                at -= chunk.rows();
            }
            throw new IllegalStateException("row " + row + " past column " + column.name());
        }
    }

    private record Key(long[] words) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(words, k.words);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(words);
        }
    }
}

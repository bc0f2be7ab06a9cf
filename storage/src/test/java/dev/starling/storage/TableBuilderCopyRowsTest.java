package dev.starling.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The rows an append has written so far, copied out as a device column holds them (what the GPU's
 * resident appends send): before the build, from the full chunks and the open one (which continues
 * the table's partial last chunk), and after it, equal to the built version's chunks byte for byte,
 * for every type, dictionary codes, dense keys and NULL flags.
 */
class TableBuilderCopyRowsTest {

    @Test
    void rowsCopiedBeforeAndAfterTheBuildAreTheBuiltChunks() {
        Catalog catalog = Catalog.inMemory();
        catalog.put(SampleTables.build(SampleTables.DIM, catalog, SampleTables.rows(SampleTables.DIM_ROWS, SampleTables::dimRow)));
        Table base = SampleTables.build(SampleTables.FACT, catalog, SampleTables.rows(SampleTables.FACT_ROWS, SampleTables::factRow));
        TableBuilder builder = TableBuilder.appendingTo(base, catalog);
        int end = SampleTables.FACT_ROWS + Table.CHUNK_ROWS + 1_000;
        SampleTables.fill(builder, SampleTables.rows(SampleTables.FACT_ROWS, end, SampleTables::factRow));
        int columns = base.columns().size();
        byte[][] before = new byte[columns][];
        byte[][] nullsBefore = new byte[columns][];
        for (int c = 0; c < columns; c++) {
            before[c] = copied(builder, c, base.column(c).physical().width, end, nullsBefore, c);
        }
        Table built = builder.build();
        for (int c = 0; c < columns; c++) {
            Column column = built.column(c);
            int width = column.physical().width;
            byte[] chunks = new byte[end * width];
            byte[] nulls = new byte[end];
            long at = 0;
            for (ColumnChunk chunk : column.chunks()) {
                MemorySegment.copy(chunk.values(), 0, MemorySegment.ofArray(chunks), at * width, (long) chunk.rows() * width);
                if (chunk.nulls() != null) {
                    MemorySegment.copy(chunk.nulls(), 0, MemorySegment.ofArray(nulls), at, chunk.rows());
                }
                at += chunk.rows();
            }
            assertArrayEquals(chunks, before[c], column.name() + " copied before the build");
            assertArrayEquals(nulls, nullsBefore[c], column.name() + "'s NULL flags copied before the build");
            byte[][] nullsAfter = new byte[1][];
            assertArrayEquals(chunks, copied(builder, c, width, end, nullsAfter, 0), column.name() + " copied after it");
            assertArrayEquals(nulls, nullsAfter[0], column.name() + "'s NULL flags copied after it");
        }
        assertThrows(IndexOutOfBoundsException.class, () -> builder.copyRows(0, end - 5, 10,
                MemorySegment.ofArray(new byte[80]), null));
    }

    /** Column {@code c}'s rows 0 to {@code rows}, copied in pieces that cross chunk boundaries. */
    private static byte[] copied(TableBuilder builder, int c, int width, int rows, byte[][] nulls, int slot) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate((long) rows * width);
            MemorySegment flags = arena.allocate(rows);
            int piece = 10_007;
            for (int from = 0; from < rows; from += piece) {
                int n = Math.min(piece, rows - from);
                builder.copyRows(c, from, n, values.asSlice((long) from * width), flags.asSlice(from));
            }
            nulls[slot] = flags.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            return values.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
    }
}

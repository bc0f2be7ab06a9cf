package dev.starling.storage;

import java.util.List;

/**
 * The JSON metadata block of a {@link TableFile}: the schema, and per column where its bytes lie.
 * Its JSON shape, including that of the embedded {@link ZoneMap}, {@link ColumnStats} and
 * {@link ForeignKey} records, is part of {@link TableFile#FORMAT_VERSION}: changing one of them
 * means a new format version.
 */
record TableFileMetadata(String table, long rows, List<String> primaryKey, List<ForeignKey> foreignKeys,
                         List<Integer> chunkRows, List<ColumnEntry> columns) {

    /** One column: {@code type} as SQL text, so the JSON reads like the DDL that created it. */
    record ColumnEntry(String name, String type, boolean nullable, Column.DenseReference denseReference,
                       DictionaryEntry dictionary, ColumnStats stats, List<ChunkEntry> chunks) { }

    /** A VARCHAR column's dictionary: UTF-8 bytes and {@code size + 1} long offsets into them. */
    record DictionaryEntry(int size, Section bytes, Section offsets) { }

    /** {@code nulls} is absent when the chunk has no NULL. */
    record ChunkEntry(ZoneMap zoneMap, Section values, Section nulls) { }

    /** A byte range of the file and the CRC32C of its content. */
    record Section(long offset, long length, int crc32c) { }
}

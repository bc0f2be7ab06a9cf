package dev.starling.storage;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.starling.storage.TableFileMetadata.ChunkEntry;
import dev.starling.storage.TableFileMetadata.ColumnEntry;
import dev.starling.storage.TableFileMetadata.DictionaryEntry;
import dev.starling.storage.TableFileMetadata.Section;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads and writes one table version as a Starling table file ({@code .stbl}).
 *
 * <h2>Layout</h2>
 * <pre>
 * 0   header (64 bytes, little-endian):
 *       0  magic "STARLTBL"        8  int  format version     12 int  metadata CRC32C
 *       16 long metadata offset    24 long metadata length    32 int  CRC32C of bytes 0..31
 * 64  sections, each starting at a multiple of 64: per column, per chunk its values
 *     (rows x physical width, exactly the in-memory chunk) and, if it has NULLs, its null bytes
 *     (one per row, 1 = NULL); then for a VARCHAR column its dictionary's UTF-8 bytes and its
 *     size + 1 long offsets
 * end the metadata: JSON ({@link TableFileMetadata}) with the schema (columns, types, nullability,
 *     primary and foreign keys), per column its dense reference, statistics and dictionary
 *     sections, per chunk its row count, zone map and sections; every section carries its CRC32C
 * </pre>
 * The metadata comes last so that the file is written in one streaming pass straight from the
 * off-heap chunks; the header, which points to it, is written last.
 *
 * <h2>Why not Arrow IPC</h2>
 * Loading is a {@code mmap} and nothing else: chunks and dictionaries are slices of the mapping,
 * in exactly the layout that scans, the CPU backend and GPU transfers read (INT32 dense foreign-key
 * codes, INT32 dictionary codes, byte null flags), 64-byte aligned. Arrow IPC stores validity as
 * bitmaps and dictionaries as Arrow string vectors, so every load would need a conversion pass, and
 * it has no place for dense references, zone maps or statistics except custom key-value metadata,
 * which would make the files Starling-specific anyway while still paying for the conversion. Arrow
 * stays the wire format: results are assembled into Arrow batches for clients.
 *
 * <p>The file is checked when it is opened (magic, version, every CRC32C, section bounds and
 * sizes); a damaged file fails with an {@link IOException} naming it, never with wrong data.
 */
final class TableFile {
    /** 2: zone maps keep their chunk's set of small values ({@link ZoneMap#absentSmall}), which version 1 reads as unknown. */
    static final int FORMAT_VERSION = 2;
    private static final int OLDEST_READ = 1;
    static final String EXTENSION = ".stbl";

    private static final byte[] MAGIC = "STARLTBL".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_BYTES = 64;
    private static final int HEADER_CHECKED_BYTES = 32;
    /** Cache-line alignment: at least what any chunk value needs, and good for vector loads and DMA. */
    private static final int ALIGNMENT = 64;
    /** ByteBuffer views are int-indexed, so large sections are checksummed and written in slices. */
    private static final long MAX_SLICE = 1 << 30;
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TableFile() { }

    static void write(Table table, FileChannel out) throws IOException {
        requireLittleEndian();
        new Writer(out).write(table);
    }

    /** Maps {@code file}; the table's segments stay valid while reachable, even after the file is replaced. */
    static Table read(Path file) throws IOException {
        requireLittleEndian();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < HEADER_BYTES) {
                throw new IOException(corrupt(file, "it has " + size + " bytes, less than the header"));
            }
            return new Reader(file, ch.map(FileChannel.MapMode.READ_ONLY, 0, size, Arena.ofAuto())).read();
        }
    }

    /** Chunk payloads are the in-memory layout, which is little-endian on every platform Starling runs on. */
    private static void requireLittleEndian() throws IOException {
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new IOException("Starling table files are little-endian; this platform is " + ByteOrder.nativeOrder());
        }
    }

    private static int crc32c(MemorySegment data) {
        CRC32C crc = new CRC32C();
        for (long at = 0; at < data.byteSize(); at += MAX_SLICE) {
            crc.update(data.asSlice(at, Math.min(MAX_SLICE, data.byteSize() - at)).asByteBuffer());
        }
        return (int) crc.getValue();
    }

    private static String corrupt(Path file, String detail) {
        return "table file " + file + " is corrupt: " + detail;
    }

    private static final class Writer {
        private static final ByteBuffer ZEROS = ByteBuffer.allocate(ALIGNMENT);
        private final FileChannel out;

        Writer(FileChannel out) {
            this.out = out;
        }

        void write(Table table) throws IOException {
            out.position(HEADER_BYTES);
            List<ColumnEntry> columns = new ArrayList<>();
            for (Column c : table.columns()) {
                columns.add(writeColumn(c));
            }
            List<Integer> chunkRows = new ArrayList<>();
            for (int i = 0; i < table.chunkCount(); i++) {
                chunkRows.add(table.chunkRows(i));
            }
            TableSchema schema = table.schema();
            var metadata = new TableFileMetadata(schema.name(), table.rowCount(), schema.primaryKey(),
                    schema.foreignKeys(), chunkRows, columns);
            writeHeader(writeSection(MemorySegment.ofArray(JSON.writeValueAsBytes(metadata))));
        }

        private ColumnEntry writeColumn(Column column) throws IOException {
            int width = column.physical().width;
            List<ChunkEntry> chunks = new ArrayList<>();
            for (ColumnChunk c : column.chunks()) {
                Section values = writeSection(c.values().asSlice(0, (long) c.rows() * width));
                Section nulls = c.nulls() == null ? null : writeSection(c.nulls().asSlice(0, c.rows()));
                chunks.add(new ChunkEntry(c.zoneMap(), values, nulls));
            }
            DictionaryEntry dictionary = null;
            Dictionary d = column.dictionary();
            if (d != null) {
                Section bytes = writeSection(d.bytes().asSlice(0, d.byteSize()));
                Section offsets = writeSection(d.offsets().asSlice(0, 8L * (d.size() + 1)));
                dictionary = new DictionaryEntry(d.size(), bytes, offsets);
            }
            ColumnSchema cs = column.schema();
            return new ColumnEntry(cs.name(), cs.type().toString(), cs.nullable(), column.denseReference(),
                    dictionary, column.stats(), chunks);
        }

        private Section writeSection(MemorySegment data) throws IOException {
            long at = out.position();
            long pad = (ALIGNMENT - at % ALIGNMENT) % ALIGNMENT;
            if (pad > 0) {
                writeFully(ZEROS.duplicate().limit((int) pad));
                at += pad;
            }
            for (long done = 0; done < data.byteSize(); done += MAX_SLICE) {
                writeFully(data.asSlice(done, Math.min(MAX_SLICE, data.byteSize() - done)).asByteBuffer());
            }
            return new Section(at, data.byteSize(), crc32c(data));
        }

        private void writeFully(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) {
                out.write(b);
            }
        }

        private void writeHeader(Section metadata) throws IOException {
            ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            h.put(MAGIC).putInt(FORMAT_VERSION).putInt(metadata.crc32c())
                    .putLong(metadata.offset()).putLong(metadata.length());
            h.putInt(crc32c(MemorySegment.ofArray(h.array()).asSlice(0, HEADER_CHECKED_BYTES)));
            h.clear();
            while (h.hasRemaining()) {
                out.write(h, h.position()); // the header sits at file offset 0, so buffer and file positions agree
            }
        }
    }

    private static final class Reader {
        private final Path file;
        private final MemorySegment mapped;

        Reader(Path file, MemorySegment mapped) {
            this.file = file;
            this.mapped = mapped;
        }

        Table read() throws IOException {
            MemorySegment header = mapped.asSlice(0, HEADER_BYTES);
            if (header.asSlice(0, MAGIC.length).mismatch(MemorySegment.ofArray(MAGIC)) >= 0) {
                throw new IOException(file + " is not a Starling table file (no STARLTBL header)");
            }
            if (crc32c(header.asSlice(0, HEADER_CHECKED_BYTES)) != header.get(LE_INT, HEADER_CHECKED_BYTES)) {
                throw new IOException(corrupt(file, "header checksum mismatch"));
            }
            int version = header.get(LE_INT, 8);
            if (version < OLDEST_READ || version > FORMAT_VERSION) {
                throw new IOException("table file " + file + " has format version " + version
                        + "; this Starling reads versions " + OLDEST_READ + " to " + FORMAT_VERSION);
            }
            Section meta = new Section(header.get(LE_LONG, 16), header.get(LE_LONG, 24), header.get(LE_INT, 12));
            MemorySegment json = section(meta, meta.length(), "metadata");
            TableFileMetadata metadata;
            try {
                metadata = JSON.readValue(json.toArray(ValueLayout.JAVA_BYTE), TableFileMetadata.class);
            } catch (JacksonException e) {
                throw new IOException(corrupt(file, "unreadable metadata: " + e.getOriginalMessage()), e);
            }
            try {
                return table(metadata);
            } catch (IllegalArgumentException e) {
                throw new IOException(corrupt(file, e.getMessage()), e);
            }
        }

        private Table table(TableFileMetadata m) throws IOException {
            List<ColumnSchema> schemas = new ArrayList<>();
            for (ColumnEntry c : m.columns()) {
                schemas.add(new ColumnSchema(c.name(), DataType.parse(c.type()), c.nullable()));
            }
            TableSchema schema = new TableSchema(m.table(), schemas, m.primaryKey(), m.foreignKeys());
            checkChunkRows(m);
            List<Column> columns = new ArrayList<>();
            for (int i = 0; i < schemas.size(); i++) {
                columns.add(column(schemas.get(i), m.columns().get(i), m.chunkRows()));
            }
            return new Table(schema, columns, m.rows());
        }

        /** Every chunk but the last is full, as {@link TableBuilder} makes them: row i sits in chunk i >> CHUNK_SHIFT. */
        private void checkChunkRows(TableFileMetadata m) throws IOException {
            long total = 0;
            List<Integer> rows = m.chunkRows();
            for (int i = 0; i < rows.size(); i++) {
                int r = rows.get(i);
                if (r < 1 || r > Table.CHUNK_ROWS || (r != Table.CHUNK_ROWS && i < rows.size() - 1)) {
                    throw new IOException(corrupt(file, "chunk " + i + " has " + r + " rows"));
                }
                total += r;
            }
            if (total != m.rows()) {
                throw new IOException(corrupt(file, "chunks hold " + total + " rows, the table " + m.rows()));
            }
        }

        private Column column(ColumnSchema schema, ColumnEntry entry, List<Integer> chunkRows) throws IOException {
            if (entry.chunks().size() != chunkRows.size()) {
                throw new IOException(corrupt(file, "column " + schema.name() + " has " + entry.chunks().size()
                        + " chunks, the table " + chunkRows.size()));
            }
            var physical = entry.denseReference() != null ? DataType.Physical.INT32 : schema.type().physical();
            List<ColumnChunk> chunks = new ArrayList<>();
            for (int i = 0; i < chunkRows.size(); i++) {
                int rows = chunkRows.get(i);
                ChunkEntry c = entry.chunks().get(i);
                String what = schema.name() + " chunk " + i;
                MemorySegment values = section(c.values(), (long) rows * physical.width, what + " values");
                MemorySegment nulls = c.nulls() == null ? null : section(c.nulls(), rows, what + " nulls");
                chunks.add(new ColumnChunk(physical, rows, values, nulls, c.zoneMap()));
            }
            return new Column(schema, chunks, dictionary(schema, entry.dictionary()), entry.denseReference(),
                    entry.stats());
        }

        private Dictionary dictionary(ColumnSchema schema, DictionaryEntry d) throws IOException {
            boolean varchar = schema.type().kind() == DataType.Kind.VARCHAR;
            if (varchar != (d != null)) {
                throw new IOException(corrupt(file, "column " + schema.name() + " is " + schema.type()
                        + (varchar ? " but has no dictionary" : " but has a dictionary")));
            }
            if (d == null) {
                return null;
            }
            if (d.size() < 0) {
                throw new IOException(corrupt(file, "column " + schema.name() + " has a dictionary of size " + d.size()));
            }
            String what = schema.name() + " dictionary";
            MemorySegment offsets = section(d.offsets(), 8L * (d.size() + 1), what + " offsets");
            MemorySegment bytes = section(d.bytes(), offsets.getAtIndex(ValueLayout.JAVA_LONG, d.size()), what);
            return new Dictionary(bytes, offsets, d.size());
        }

        /** The checked slice of the mapping that {@code s} describes. */
        private MemorySegment section(Section s, long expectedLength, String what) throws IOException {
            if (s.length() != expectedLength) {
                throw new IOException(corrupt(file, what + " has " + s.length() + " bytes, expected " + expectedLength));
            }
            if (s.offset() < HEADER_BYTES || s.offset() % ALIGNMENT != 0 || s.length() < 0
                    || s.offset() > mapped.byteSize() - s.length()) {
                throw new IOException(corrupt(file, what + " lies outside the file"));
            }
            MemorySegment data = mapped.asSlice(s.offset(), s.length());
            if (crc32c(data) != s.crc32c()) {
                throw new IOException(corrupt(file, what + " checksum mismatch"));
            }
            return data;
        }
    }
}

package dev.starling.storage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table versions in a data directory, one {@link TableFile} per table. A version is written to
 * {@code <name>.stbl.tmp}, forced to disk, renamed over {@code <name>.stbl} and the directory is
 * forced, so after a crash a table is either its old or its new version, never a torn file; a
 * leftover {@code .tmp} is an uncommitted write and is deleted on open. Several new tables made
 * all or none ({@link Catalog#createAll}) are named first in {@value #INTENT}, removed once they
 * all are committed: a crash between leaves it, and open deletes the tables it names, then it.
 */
final class TableStore {
    private static final Logger LOG = LoggerFactory.getLogger(TableStore.class);
    /** The names of new tables being made all or none, one a line, while they are. */
    static final String INTENT = "creating.tables";
    /** A view's file: its name, columns and query as JSON. */
    static final String VIEW_EXTENSION = ".view";
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final Path dir;
    private final DataDirectoryLock lock;

    /** Opens {@code dir} (creating it), holding it against other processes until {@link #close}. */
    TableStore(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.lock = DataDirectoryLock.acquire(this.dir);
    }

    void close() {
        lock.close();
    }

    Path directory() {
        return dir;
    }

    List<Table> loadAll() throws IOException {
        undoUnfinishedCreation();
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.endsWith(DurableFiles.TEMP_SUFFIX)) {
                    LOG.warn("removing {}: an uncommitted write", p);
                    Files.delete(p);
                } else if (name.endsWith(TableFile.EXTENSION)) {
                    files.add(p);
                }
            }
        }
        files.sort(null);
        Map<String, Table> tables = new HashMap<>();
        for (Path p : files) {
            Table t = TableFile.read(p);
            if (!p.getFileName().toString().equals(fileName(t.name()))) {
                // drop and replace find a table by its file name, so a renamed or copied file would resurrect
                throw new IOException("table file " + p + " holds table " + t.name() + "; its name must be "
                        + fileName(t.name()));
            }
            tables.put(t.name(), t);
        }
        for (Table t : tables.values()) {
            requireDenseReferences(t, tables);
        }
        return List.copyOf(tables.values());
    }

    /** Names {@code tables}, new ones about to be created all or none, durably, before any is. */
    void beginCreating(List<String> tables) throws IOException {
        writeAtomically(INTENT, out -> out.write(java.nio.ByteBuffer.wrap(
                String.join("\n", tables).getBytes(StandardCharsets.UTF_8))));
    }

    /** Every table {@link #beginCreating} named is committed (or dropped again): forgets them, durably. */
    void endCreating() throws IOException {
        Files.deleteIfExists(dir.resolve(INTENT));
        forceDirectory();
    }

    /** Deletes the tables of a creation a crash interrupted, then its record. */
    private void undoUnfinishedCreation() throws IOException {
        Path intent = dir.resolve(INTENT);
        if (!Files.exists(intent)) {
            return;
        }
        for (String table : Files.readAllLines(intent, StandardCharsets.UTF_8)) {
            if (!table.isBlank() && Files.deleteIfExists(dir.resolve(fileName(table)))) {
                LOG.warn("removing table {}: one of several created all or none, interrupted", table);
            }
        }
        endCreating();
    }

    void write(Table table) throws IOException {
        writeAtomically(fileName(table.name()), out -> TableFile.write(table, out));
    }

    /** Every committed view. */
    List<View> loadViews() throws IOException {
        List<View> views = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*" + VIEW_EXTENSION)) {
            for (Path p : entries) {
                View v = JSON.readValue(p.toFile(), View.class);
                if (!p.getFileName().toString().equals(viewFileName(v.name()))) {
                    throw new IOException("view file " + p + " holds view " + v.name() + "; its name must be "
                            + viewFileName(v.name()));
                }
                views.add(v);
            }
        }
        return views;
    }

    void write(View view) throws IOException {
        byte[] json = JSON.writeValueAsBytes(view);
        writeAtomically(viewFileName(view.name()), out -> {
            java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(json);
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        });
    }

    void deleteView(String name) throws IOException {
        Files.deleteIfExists(dir.resolve(viewFileName(name)));
        forceDirectory();
    }

    /** Writes {@code fileName} in the data directory durably ({@link DurableFiles#replace}). */
    private void writeAtomically(String fileName, DurableFiles.Writer writer) throws IOException {
        DurableFiles.replace(dir.resolve(fileName), writer);
    }

    void delete(String name) throws IOException {
        Files.deleteIfExists(dir.resolve(fileName(name)));
        forceDirectory();
    }

    /** Makes renames and deletions in the directory durable. */
    private void forceDirectory() throws IOException {
        DurableFiles.forceDirectory(dir);
    }

    /**
     * The table's file name: lower-case letters, digits, '_', '-' and '.' (as in {@code ssb.customer})
     * are kept, anything else (a leading '.' too) is percent-encoded as UTF-8 bytes, so every table
     * name maps to a distinct plain file, also on a case-insensitive file system.
     */
    static String fileName(String table) {
        return encoded(table) + TableFile.EXTENSION;
    }

    static String viewFileName(String view) {
        return encoded(view) + VIEW_EXTENSION;
    }

    private static String encoded(String name) {
        StringBuilder out = new StringBuilder();
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < utf8.length; i++) {
            int b = utf8[i] & 0xff;
            boolean plain = (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')
                    || b == '_' || b == '-' || (b == '.' && i > 0);
            if (plain) {
                out.append((char) b);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 15, 16)));
            }
        }
        return out.toString();
    }

    /** A dense-coded column is only readable with the table its codes index into. */
    private void requireDenseReferences(Table t, Map<String, Table> tables) throws IOException {
        for (Column c : t.columns()) {
            if (!c.isDenseCoded()) {
                continue;
            }
            Table dim = tables.get(c.denseReference().table());
            if (dim == null || dim.schema().indexOf(c.denseReference().keyColumn()) < 0) {
                throw new IOException("table " + t.name() + " column " + c.name() + " references "
                        + c.denseReference().table() + "." + c.denseReference().keyColumn() + ", which is not in "
                        + dir);
            }
            ColumnStats s = c.stats();
            if (s.rows() > s.nulls() && s.max() >= dim.rowCount()) {
                throw new IOException("table " + t.name() + " column " + c.name() + " points to row " + s.max()
                        + " of " + dim.name() + ", which has " + dim.rowCount() + " rows in " + dir);
            }
        }
    }
}

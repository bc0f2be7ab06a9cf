package dev.starling.storage.load;

import dev.starling.storage.Catalog;
import dev.starling.storage.PrimaryKeys;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads delimited text files (dbgen {@code .tbl}, CSV) into tables, all or nothing: the rows are
 * built into a new table version that is committed only when the whole file has been read, so a
 * malformed file leaves the table as it was, in memory and on disk. Files are read as UTF-8.
 */
public final class TableLoader {
    private static final Logger LOG = LoggerFactory.getLogger(TableLoader.class);
    /** A load says in the log how far it has got every this many rows. */
    private static final long PROGRESS_ROWS = 10_000_000;
    /** A load tells {@link #progress} how far it has got every this many rows. */
    private static final long REPORTED_ROWS = 1 << 16;
    private final Catalog catalog;
    private final LongConsumer progress;

    public TableLoader(Catalog catalog) {
        this(catalog, rows -> { });
    }

    /** A loader that tells {@code progress} the rows a load has read so far, as it goes. */
    public TableLoader(Catalog catalog, LongConsumer progress) {
        this.catalog = catalog;
        this.progress = progress;
    }

    /** Creates a table from a file; fails if the table exists. */
    public LoadResult create(TableSchema schema, Path file, LoadFormat format) {
        try (Reader in = open(file)) {
            return create(schema, in, file.getFileName().toString(), format);
        } catch (IOException e) {
            throw cannotRead(file, e);
        }
    }

    /** Appends a file's rows after the existing rows of a table. */
    public LoadResult append(String table, Path file, LoadFormat format) {
        try (Reader in = open(file)) {
            return append(table, in, file.getFileName().toString(), format);
        } catch (IOException e) {
            throw cannotRead(file, e);
        }
    }

    /** @param source names the input in error messages, such as its file name */
    public LoadResult create(TableSchema schema, Reader in, String source, LoadFormat format) {
        long started = System.nanoTime();
        if (catalog.table(schema.name()).isPresent()) {
            throw new IllegalArgumentException("table " + schema.name() + " already exists");
        }
        TableBuilder builder = new TableBuilder(schema, catalog);
        long rows = readRows(builder, in, source, format, progress);
        Table built = builder.build();
        PrimaryKeys.check(built, 0, catalog);
        catalog.create(built);
        return new LoadResult(schema.name(), rows, secondsSince(started));
    }

    /** @param source names the input in error messages, such as its file name */
    public LoadResult append(String table, Reader in, String source, LoadFormat format) {
        long started = System.nanoTime();
        return catalog.appending(table, base -> {
            TableBuilder builder = TableBuilder.appendingTo(base, catalog);
            long rows = readRows(builder, in, source, format, progress);
            Table built = builder.build();
            PrimaryKeys.check(built, base.rowCount(), catalog);
            catalog.commitAppend(base, built);
            LOG.info("loaded {} rows into {} from {} in {} s", rows, base.name(), source,
                    String.format(java.util.Locale.ROOT, "%.1f", secondsSince(started)));
            return new LoadResult(base.name(), rows, secondsSince(started));
        });
    }

    private static UncheckedIOException cannotRead(Path file, IOException e) {
        String why = switch (e) {
            case NoSuchFileException x -> "no such file";
            case AccessDeniedException x -> "permission denied";
            default -> e.getMessage();
        };
        return new UncheckedIOException("cannot read " + file + ": " + why, e);
    }

    private static Reader open(Path file) throws IOException {
        // a decoder of its own reports malformed UTF-8 instead of replacing it
        return new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder());
    }

    private static long readRows(TableBuilder out, Reader in, String source, LoadFormat format, LongConsumer progress) {
        TableSchema schema = out.schema();
        int columns = schema.columns().size();
        FieldParser[] parsers = new FieldParser[columns];
        for (int c = 0; c < columns; c++) {
            parsers[c] = FieldParser.of(schema.column(c).type());
        }
        char[] nullText = format.nullText().toCharArray();
        RecordReader records = new RecordReader(in, format);
        long rows = 0;
        int column = 0;
        try {
            if (format.header() && records.next() && records.fieldCount() != columns) {
                throw new LoadException(source, records.line(), 0, null, "the header has "
                        + records.fieldCount() + " fields, table " + schema.name() + " " + columns + " columns");
            }
            while (records.next()) {
                if (records.fieldCount() != columns) {
                    throw new LoadException(source, records.line(), 0, null, "expected " + columns + " fields, found "
                            + records.fieldCount());
                }
                char[] text = records.text();
                for (column = 0; column < columns; column++) {
                    int start = records.start(column);
                    int end = records.end(column);
                    if (!records.quoted(column) && isNull(text, start, end, nullText)) {
                        if (!schema.column(column).nullable()) {
                            throw new BadValueException(nullText.length == 0 ? "empty field (NULL) in a NOT NULL column"
                                    : "'" + format.nullText() + "' (NULL) in a NOT NULL column");
                        }
                        out.setNull(column);
                    } else {
                        parsers[column].parse(text, start, end, out, column);
                    }
                }
                out.endRow();
                if (++rows % REPORTED_ROWS == 0) {
                    progress.accept(rows);
                }
                if (rows % PROGRESS_ROWS == 0) {
                    LOG.info("loading {}: {} rows read", source, rows);
                }
            }
            progress.accept(rows);
            return rows;
        } catch (BadValueException | IllegalArgumentException e) {
            // IllegalArgumentException: TableBuilder found no referenced row for a foreign key
            throw new LoadException(source, records.line(column), column + 1, schema.column(column).name(),
                    e.getMessage());
        } catch (MalformedRecordException e) {
            String name = e.field > 0 && e.field <= columns ? schema.column(e.field - 1).name() : null;
            throw new LoadException(source, e.line, e.field, name, e.getMessage());
        } catch (CharacterCodingException e) {
            // the decoder reads ahead, so the bad bytes are on this line or a later one
            throw new LoadException(source, records.nextLine(), 0, null, "not valid UTF-8 on this line or soon after ("
                    + e.getMessage() + ")");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    private static boolean isNull(char[] text, int start, int end, char[] nullText) {
        if (end - start != nullText.length) {
            return false;
        }
        for (int i = 0; i < nullText.length; i++) {
            if (text[start + i] != nullText[i]) {
                return false;
            }
        }
        return true;
    }

    private static double secondsSince(long nanoTime) {
        return (System.nanoTime() - nanoTime) / 1e9;
    }
}

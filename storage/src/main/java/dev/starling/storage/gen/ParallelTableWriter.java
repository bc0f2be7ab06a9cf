package dev.starling.storage.gen;

import dev.starling.storage.Catalog;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableConcat;
import dev.starling.storage.TableSchema;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts generated tables into a catalog under one schema. A table is generated in parts on all
 * cores, each part into its own {@link TableBuilder}, and the parts are joined in order; generators
 * must emit the same rows however the table is split, so the data never depends on the machine.
 */
final class ParallelTableWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ParallelTableWriter.class);
    /** Below this many rows per part, splitting costs more than it saves. */
    private static final long MIN_PART_ROWS = 16_384;
    /** From this many rows, a table's progress is logged as its parts finish. */
    private static final long PROGRESS_ROWS = 10_000_000;

    /** Rows a part generates between calls of the checkpoint. */
    private static final int CHECKPOINT_ROWS = 65_536;

    private final Catalog catalog;
    private final String schema;
    private final int workers;
    private final Runnable checkpoint;

    /** Emits, in table order, the rows of part {@code part} (0-based) of {@code parts}. */
    @FunctionalInterface
    interface PartGenerator<E> {
        void generate(int part, int parts, Consumer<E> sink);
    }

    /**
     * @param schema  "" for unqualified table names, else an identifier that prefixes them
     * @param workers how many parts run at once; it decides how tables are split, not what they hold
     * @param checkpoint called every {@value #CHECKPOINT_ROWS} rows of a part; what it throws stops
     *                   the generation (a cancelled statement)
     */
    ParallelTableWriter(Catalog catalog, String schema, int workers, Runnable checkpoint) {
        if (!schema.isEmpty() && !schema.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("schema '" + schema + "' is not a plain identifier");
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        this.catalog = catalog;
        this.schema = schema.toLowerCase(Locale.ROOT);
        this.workers = workers;
        this.checkpoint = checkpoint;
    }

    /**
     * Generates {@code benchmark}'s {@code tables} by {@code puts} (which puts each, in this order),
     * all or none ({@link Catalog#createAll}): a crash or a failure half-way leaves none of them.
     * Fails before anything is generated when one of them exists already.
     */
    void createAll(String benchmark, List<String> tables, Runnable puts) {
        List<String> names = tables.stream().map(t -> TableDefinition.qualify(schema, t)).toList();
        for (String name : names) {
            if (catalog.table(name).isPresent()) {
                throw new IllegalArgumentException("cannot generate " + benchmark + ": table " + name
                        + " already exists (drop it or generate into another schema)");
            }
        }
        catalog.createAll(names, puts);
    }

    /**
     * Generates a table of about {@code rows} rows and puts it into the catalog, saying in the log
     * when a large one is in and, for the largest, how far it has got (each quarter of its parts).
     */
    <E> void put(TableDefinition<E> definition, long rows, PartGenerator<E> generator) {
        TableSchema tableSchema = definition.schema(schema);
        int parts = (int) Math.clamp(rows / MIN_PART_ROWS, 1, 2L * workers);
        long start = System.nanoTime();
        AtomicInteger done = new AtomicInteger();
        List<Table> built = IntStream.range(0, parts).parallel().mapToObj(part -> {
            TableBuilder builder = new TableBuilder(tableSchema, catalog);
            checkpoint.run();
            generator.generate(part, parts, row -> {
                if (builder.rows() % CHECKPOINT_ROWS == 0) {
                    checkpoint.run();
                }
                definition.append(builder, row);
            });
            Table t = builder.build();
            int finished = done.incrementAndGet();
            if (rows >= PROGRESS_ROWS && finished < parts && finished * 4 / parts > (finished - 1) * 4 / parts) {
                LOG.info("generating {}: {} of {} parts in {} s", tableSchema.name(), finished, parts, seconds(start));
            }
            return t;
        }).toList();
        Table table = TableConcat.concat(built);
        catalog.put(table);
        if (table.rowCount() >= PROGRESS_ROWS / 10) {
            LOG.info("generated {}: {} rows in {} s", tableSchema.name(), table.rowCount(), seconds(start));
        }
    }

    private static String seconds(long since) {
        return String.format(Locale.ROOT, "%.1f", (System.nanoTime() - since) / 1e9);
    }
}

package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.gpu.GpuBackend;
import dev.starling.server.flight.FlightSqlServer;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A server under load for a set time, as a shared deployment meets it: many JDBC clients through
 * the Flight SQL driver run the TPC-H and SSB queries in random order, each answer checked against
 * the first one seen for its query, while other clients INSERT rows and LOAD files into tables of
 * their own and check that every acknowledged write is there. Afterwards the soak tables are
 * dropped, and the heap and the GPU memory beyond the column cache are compared with what they
 * were before the clients started. Exits 1 on any error, wrong answer or lost write.
 */
@Command(name = "starling-soak", mixinStandardHelpOptions = true,
        description = "Runs many JDBC clients against one server for a set time and checks every answer and write.")
public final class SoakMain implements Callable<Integer> {
    private static final Pattern SSB_TABLE = Pattern.compile("\\b(" + String.join("|", SsbGenerator.TABLES) + ")\\b");
    private static final int INSERT_ROWS = 100;
    private static final int LOAD_ROWS = 1_000;
    private static final int MAX_REPORTED = 10;

    @Option(names = "--sf", description = "Scale factor of TPC-H and SSB (default: ${DEFAULT-VALUE}).")
    private double scaleFactor = 1;

    @Option(names = "--clients", description = "JDBC clients (default: ${DEFAULT-VALUE}).")
    private int clients = 64;

    @Option(names = "--writers", description = "Of the clients, how many write: half INSERT, half LOAD (default: ${DEFAULT-VALUE}).")
    private int writers = 8;

    @Option(names = "--seconds", description = "How long the clients run (default: ${DEFAULT-VALUE}).")
    private int seconds = 540;

    @Option(names = "--backend", description = "The backend the sessions ask for: auto, gpu or cpu (default: ${DEFAULT-VALUE}).")
    private String backend = "auto";

    private final Map<String, String> firstAnswers = new ConcurrentHashMap<>();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong wrong = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong rowsInserted = new AtomicLong();
    private final AtomicLong filesLoaded = new AtomicLong();
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    private long gpuRuns;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SoakMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path data = Files.createTempDirectory("starling-soak");
        // the server's LOAD reads under the data directory's import/
        String file = loadFile(Files.createDirectories(data.resolve("import")));
        try (Starling db = Starling.open(data)) {
            long start = System.nanoTime();
            TpchGenerator.generate(db.catalog(), scaleFactor, "");
            SsbGenerator.generate(db.catalog(), scaleFactor, "ssb");
            System.out.printf("TPC-H and SSB SF %s generated in %.1f s; %d cores, Java %s%n", scaleFactor,
                    (System.nanoTime() - start) / 1e9, Runtime.getRuntime().availableProcessors(), Runtime.version());
            Map<String, String> queries = queries();
            try (FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0)) {
                String url = FlightJdbcRunner.url(server.port());
                createTables(url);
                warm(url, queries);
                Memory before = Memory.of(db);
                long gpuRunsBefore = gpuRuns(db);
                run(url, queries, file);
                gpuRuns = gpuRuns(db) - gpuRunsBefore;
                dropTables(url);
                Memory after = Memory.of(db);
                report(db, before, after);
            }
        }
        return errors.get() + wrong.get() + lost.get() == 0 ? 0 : 1;
    }

    /** The 22 TPC-H and 13 SSB queries by name, SSB's tables read from schema {@code ssb}. */
    private Map<String, String> queries() {
        Map<String, String> queries = new LinkedHashMap<>();
        for (int q = 1; q <= TpchQueries.COUNT; q++) {
            queries.put("TPC-H Q" + q, TpchQueries.query(q, scaleFactor));
        }
        for (String q : SsbQueries.names()) {
            queries.put("SSB Q" + q, SSB_TABLE.matcher(SsbQueries.query(q)).replaceAll(m -> "ssb." + m.group(1)));
        }
        return queries;
    }

    /** The name of the CSV file in {@code dir} that every LOAD reads: {@link #LOAD_ROWS} rows, a header first. */
    private static String loadFile(Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("k,note\n");
        for (int r = 0; r < LOAD_ROWS; r++) {
            csv.append(r).append(",row ").append(r).append('\n');
        }
        return Files.writeString(dir.resolve("soak.csv"), csv).getFileName().toString();
    }

    private void createTables(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE soak_inserted (writer INT NOT NULL, seq BIGINT NOT NULL, note VARCHAR(20))");
            for (int w = 0; w < loaders(); w++) {
                st.execute("CREATE TABLE soak_loaded_" + w + " (k INT NOT NULL, note VARCHAR(20))");
            }
        }
    }

    private void dropTables(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("DROP TABLE soak_inserted");
            for (int w = 0; w < loaders(); w++) {
                st.execute("DROP TABLE soak_loaded_" + w);
            }
        }
    }

    private int inserters() {
        return writers - loaders();
    }

    private int loaders() {
        return writers / 2;
    }

    /** Runs every query once, so the first answers come from a quiet server and the memory baseline follows a warm one. */
    private void warm(String url, Map<String, String> queries) throws SQLException {
        try (Connection c = connect(url)) {
            for (Map.Entry<String, String> q : queries.entrySet()) {
                firstAnswers.put(q.getKey(), answer(c, q.getValue()));
            }
        }
    }

    private void run(String url, Map<String, String> queries, String file) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<String> names = new ArrayList<>(queries.keySet());
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> running = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            int id = client;
            running.add(pool.submit(() -> {
                try (Connection c = connect(url)) {
                    if (id < inserters()) {
                        insert(c, id, deadline);
                    } else if (id < writers) {
                        load(c, id - inserters(), file, deadline);
                    } else {
                        read(c, new Random(id), names, queries, deadline);
                    }
                } catch (SQLException | RuntimeException e) {
                    problem("client " + id + " failed: " + e);
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
    }

    private void read(Connection c, Random random, List<String> names, Map<String, String> queries, long deadline) {
        while (System.nanoTime() < deadline) {
            String name = names.get(random.nextInt(names.size()));
            try {
                String answer = answer(c, queries.get(name));
                answered.incrementAndGet();
                if (!answer.equals(firstAnswers.get(name))) {
                    wrong.incrementAndGet();
                    problem(name + " answered differently from its first answer");
                }
            } catch (SQLException e) {
                errors.incrementAndGet();
                problem(name + ": " + e.getMessage());
            }
        }
    }

    /** INSERTs rows as writer {@code writer} and checks, every tenth statement, that all it was told were written are there. */
    private void insert(Connection c, int writer, long deadline) {
        long acknowledged = 0;
        for (int statement = 1; System.nanoTime() < deadline; statement++) {
            StringBuilder sql = new StringBuilder("INSERT INTO soak_inserted VALUES ");
            for (int r = 0; r < INSERT_ROWS; r++) {
                sql.append(r == 0 ? "" : ", ").append('(').append(writer).append(", ").append(acknowledged + r)
                        .append(", 'w").append(writer).append("')");
            }
            try (Statement st = c.createStatement()) {
                st.executeUpdate(sql.toString());
                acknowledged += INSERT_ROWS;
                rowsInserted.addAndGet(INSERT_ROWS);
                if (statement % 10 == 0) {
                    checkCount(c, "SELECT count(*) FROM soak_inserted WHERE writer = " + writer, acknowledged,
                            "writer " + writer + "'s inserted rows");
                }
            } catch (SQLException e) {
                errors.incrementAndGet();
                problem("INSERT by writer " + writer + ": " + e.getMessage());
            }
        }
    }

    /** LOADs {@code file} (under the server's import directory) into loader {@code loader}'s table and checks that every acknowledged load's rows are there. */
    private void load(Connection c, int loader, String file, long deadline) {
        long acknowledged = 0;
        while (System.nanoTime() < deadline) {
            try (Statement st = c.createStatement()) {
                st.execute("LOAD INTO soak_loaded_" + loader + " FROM '" + file + "'");
                acknowledged++;
                filesLoaded.incrementAndGet();
                checkCount(c, "SELECT count(*) FROM soak_loaded_" + loader, acknowledged * LOAD_ROWS,
                        "loader " + loader + "'s loaded rows");
            } catch (SQLException e) {
                errors.incrementAndGet();
                problem("LOAD by loader " + loader + ": " + e.getMessage());
            }
        }
    }

    private void checkCount(Connection c, String sql, long expected, String what) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            long found = rs.getLong(1);
            if (found != expected) {
                lost.incrementAndGet();
                problem(what + ": " + found + " found, " + expected + " acknowledged");
            }
        }
    }

    private Connection connect(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        try (Statement st = c.createStatement()) {
            st.execute("SET backend = '" + backend.toLowerCase(Locale.ROOT) + "'");
        }
        return c;
    }

    /** The rows of {@code sql}'s answer, each as text, in order (those of equal sort keys may come in any order, so sorted). */
    private static String answer(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int col = 1; col <= columns; col++) {
                    row.append(rs.getString(col)).append('|');
                }
                rows.add(row.toString());
            }
        }
        Collections.sort(rows);
        return String.join("\n", rows);
    }

    private void problem(String what) {
        if (problems.size() < MAX_REPORTED) {
            problems.add(what);
        }
    }

    private void report(Starling db, Memory before, Memory after) {
        System.out.printf("%n%d clients (%d reading, %d inserting, %d loading) for %d s, backend %s%n", clients,
                clients - writers, inserters(), loaders(), seconds, backend);
        System.out.println("| measure | value |");
        System.out.println("| --- | ---: |");
        System.out.printf("| queries answered | %d (%.1f a second) |%n", answered.get(), answered.get() / (double) seconds);
        System.out.printf("| wrong answers | %d |%n", wrong.get());
        System.out.printf("| errors | %d |%n", errors.get());
        System.out.printf("| acknowledged writes missing | %d |%n", lost.get());
        System.out.printf("| rows inserted | %d |%n", rowsInserted.get());
        System.out.printf("| files loaded | %d (%d rows) |%n", filesLoaded.get(), filesLoaded.get() * LOAD_ROWS);
        System.out.printf("| GPU pipeline runs and sorts | %s |%n", db.gpu().isEmpty() ? "no GPU" : String.valueOf(gpuRuns));
        System.out.printf("| heap in use after GC, before / after | %.1f / %.1f MB |%n", before.heap() / 1e6, after.heap() / 1e6);
        System.out.printf("| GPU memory beyond the column cache, before / after | %s |%n", db.gpu().isEmpty() ? "no GPU"
                : before.device() + " / " + after.device() + " bytes");
        problems.forEach(p -> System.out.println("  " + p));
    }

    /** How many pipelines and sorts the GPU has run (0 without a GPU). */
    private static long gpuRuns(Starling db) {
        return db.gpu().map(g -> g.runs() + g.sorts()).orElse(0L);
    }

    /** The heap in use after a full collection, and the GPU memory held beyond the column cache (0 without a GPU). */
    private record Memory(long heap, long device) {
        static Memory of(Starling db) {
            Runtime runtime = Runtime.getRuntime();
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            Optional<GpuBackend> gpu = db.gpu();
            long device = gpu.map(g -> g.device().memory().used() - g.columnCache().heldBytes()).orElse(0L);
            return new Memory(runtime.totalMemory() - runtime.freeMemory(), device);
        }
    }
}

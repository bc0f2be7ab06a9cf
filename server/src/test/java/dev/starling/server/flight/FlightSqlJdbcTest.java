package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.exec.QueryResult;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelFlightInfoResult;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server through the official Arrow Flight SQL JDBC driver, a real client: every TPC-H and
 * SSB query answers as the embedded API does, metadata browsing, prepared statements, errors with
 * their position, cancellation and concurrent clients.
 */
class FlightSqlJdbcTest {
    private static Starling db;
    private static FlightSqlServer server;

    @BeforeAll
    static void start() throws Exception {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.01, "");
        SsbGenerator.generate(db.catalog(), 0.01, "ssb");
        server = FlightSqlServer.start(db, "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        db.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false");
    }

    @Test
    void tpchQueriesAnswerAsEmbedded() throws Exception {
        try (Connection c = connect()) {
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                String sql = TpchQueries.query(q);
                assertEquals(normalize(db.query(sql)), fetch(c, sql), "TPC-H Q" + q);
            }
        }
    }

    @Test
    void ssbQueriesAnswerAsEmbedded() throws Exception {
        try (Connection c = connect()) {
            for (String q : SsbQueries.names()) {
                // The demo layout: SSB's tables live in schema ssb.
                String sql = SsbQueries.query(q).replaceAll("(?i)\\b(from|join|,)\\s+(lineorder|dwdate|customer|supplier|part)\\b",
                        "$1 ssb.$2");
                assertEquals(normalize(db.query(sql)), fetch(c, sql), "SSB Q" + q);
            }
        }
    }

    @Test
    void metadataBrowsing() throws Exception {
        try (Connection c = connect()) {
            DatabaseMetaData md = c.getMetaData();
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = md.getTables(null, null, "%", null)) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
                }
            }
            assertTrue(tables.contains(".lineitem") && tables.contains("ssb.lineorder"), tables.toString());
            assertEquals(8 + 5, tables.size(), tables.toString());
            List<String> keywords = java.util.Arrays.stream(md.getSQLKeywords().split(",")).map(String::trim).toList();
            assertTrue(keywords.contains("LIMIT") && !keywords.contains("SELECT"), keywords.toString());
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "ssb", "dwdate", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(17, columns.size(), columns.toString());
            List<String> schemas = new ArrayList<>();
            try (ResultSet rs = md.getSchemas()) {
                while (rs.next()) {
                    schemas.add(rs.getString("TABLE_SCHEM"));
                }
            }
            assertEquals(List.of("", "ssb"), schemas);
            assertEquals("Starling", md.getDatabaseProductName());
            assertEquals(Connection.TRANSACTION_NONE, md.getDefaultTransactionIsolation());
            assertTrue(md.nullsAreSortedAtEnd());

            List<String> key = new ArrayList<>();
            try (ResultSet rs = md.getPrimaryKeys(null, "", "lineitem")) {
                while (rs.next()) {
                    key.add(rs.getShort("KEY_SEQ") + ":" + rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(List.of("1:l_orderkey", "2:l_linenumber"), key);
            List<String> imported = new ArrayList<>();
            try (ResultSet rs = md.getImportedKeys(null, "", "lineitem")) {
                while (rs.next()) {
                    imported.add(rs.getString("FKCOLUMN_NAME") + "->" + rs.getString("PKTABLE_NAME") + "." + rs.getString("PKCOLUMN_NAME"));
                }
            }
            assertTrue(imported.contains("l_orderkey->orders.o_orderkey"), imported.toString());
            List<String> exported = new ArrayList<>();
            try (ResultSet rs = md.getExportedKeys(null, "", "nation")) {
                while (rs.next()) {
                    exported.add(rs.getString("FKTABLE_NAME") + "." + rs.getString("FKCOLUMN_NAME"));
                }
            }
            assertEquals(List.of("customer.c_nationkey", "supplier.s_nationkey"), exported.stream().sorted().toList());
        }
    }

    @Test
    void aDataStatementExecutedAsAQueryRunsOnceAndAnswersItsRows() throws Exception {
        try (RootAllocator allocator = new RootAllocator();
             FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcInsecure("127.0.0.1", server.port())).build())) {
            client.executeUpdate("CREATE TABLE executed (k INT)");
            FlightInfo info = client.execute("INSERT INTO executed VALUES (1), (2)");
            assertEquals("rows", info.getSchema().getFields().get(0).getName());
            try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                assertTrue(stream.next());
                assertEquals(2L, stream.getRoot().getVector("rows").getObject(0));
            }
            assertEquals(2, db.catalog().require("executed").rowCount());
            client.executeUpdate("DROP TABLE executed");
        }
    }

    @Test
    void typeInfoForFlightSqlClients() throws Exception {
        // The JDBC driver does not ask for it (its getTypeInfo is empty); ADBC and Flight SQL clients do.
        try (RootAllocator allocator = new RootAllocator();
             FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcInsecure("127.0.0.1", server.port())).build())) {
            List<String> types = new ArrayList<>();
            FlightInfo info = client.getXdbcTypeInfo();
            try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                while (stream.next()) {
                    for (int r = 0; r < stream.getRoot().getRowCount(); r++) {
                        types.add(stream.getRoot().getVector("type_name").getObject(r) + ":"
                                + stream.getRoot().getVector("data_type").getObject(r));
                    }
                }
            }
            assertEquals(List.of("BOOLEAN:16", "INTEGER:4", "BIGINT:-5", "DECIMAL:3", "DOUBLE:8", "VARCHAR:12", "DATE:91"),
                    types);
        }
    }

    @Test
    void preparedStatementRunsRepeatedly() throws Exception {
        try (Connection c = connect();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM orders WHERE o_orderstatus = 'F'")) {
            long expected = ((Number) db.query("SELECT count(*) FROM orders WHERE o_orderstatus = 'F'").rows().get(0).get(0))
                    .longValue();
            for (int i = 0; i < 3; i++) {
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(expected, rs.getLong(1));
                }
            }
        }
    }

    @Test
    void preparedStatementsTakeParameters() throws Exception {
        String sql = "SELECT count(*) FROM orders WHERE o_orderstatus = ? AND o_totalprice > ? AND o_orderdate <= ?";
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            assertEquals(3, ps.getParameterMetaData().getParameterCount());
            for (String status : List.of("F", "O")) {
                ps.setString(1, status);
                ps.setBigDecimal(2, new BigDecimal("100000.50"));
                ps.setDate(3, java.sql.Date.valueOf("1995-06-17"));
                long expected = ((Number) db.query("SELECT count(*) FROM orders WHERE o_orderstatus = '" + status
                        + "' AND o_totalprice > 100000.50 AND o_orderdate <= DATE '1995-06-17'").rows().get(0).get(0)).longValue();
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(expected, rs.getLong(1), status);
                }
            }
        }
    }

    @Test
    void batchedInsertWithParameters() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.executeUpdate("CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(20), amount DECIMAL(8,2))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO notes VALUES (?, ?, ?)")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "it's #" + i);
                    ps.setBigDecimal(3, new BigDecimal(i + ".25"));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            assertEquals(List.of(List.of("2", "it's #2", "2.25")), fetch(c, "SELECT * FROM notes WHERE id = 2"));
            assertEquals(List.of(List.of("3")), fetch(c, "SELECT count(*) FROM notes"));
            // execute(), not executeUpdate(): the driver runs it as a query; it writes once and
            // answers with the rows it wrote, as the embedded API's query() does
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO notes VALUES (?, 'executed', 1)")) {
                ps.setInt(1, 4);
                assertTrue(ps.execute());
                try (ResultSet rs = ps.getResultSet()) {
                    assertTrue(rs.next());
                    assertEquals("rows", rs.getMetaData().getColumnName(1));
                    assertEquals(1, rs.getLong(1));
                }
            }
            assertEquals(List.of(List.of("4")), fetch(c, "SELECT count(*) FROM notes"));
            st.executeUpdate("DROP TABLE notes");
        }
    }

    @Test
    void setBackendIsTheSessionsOwn() throws Exception {
        String explain = "EXPLAIN SELECT sum(l_quantity) FROM lineitem";
        try (Connection a = connect(); Connection b = connect(); Statement st = a.createStatement()) {
            st.execute("SET backend = 'cpu'");
            assertTrue(fetch(a, explain).toString().contains("backend=cpu (session backend is cpu)"), fetch(a, explain).toString());
            assertTrue(fetch(b, explain).toString().contains("backend=cpu (no GPU)"), fetch(b, explain).toString());
            st.execute("SET backend TO auto");
            assertTrue(fetch(a, explain).toString().contains("backend=cpu (no GPU)"));
            SQLException e = assertThrows(SQLException.class, () -> st.execute("SET backend = 'tpu'"));
            assertTrue(e.getMessage().contains("line 1, column 15: backend must be auto, gpu, both or cpu, not 'tpu'"), e.getMessage());
            st.execute("SET clone_layouts = on");
            st.execute("SET clone_budget = 4");
            e = assertThrows(SQLException.class, () -> st.execute("SET clone_window = 99"));
            assertTrue(e.getMessage().contains("line 1, column 20: clone_window must be between 0 and 64 chunks, not 99"),
                    e.getMessage());
        }
    }

    @Test
    void setSchemaIsTheSessionsOwn() throws Exception {
        db.query("CREATE TABLE sess.lineitem (k INT)");
        db.query("INSERT INTO sess.lineitem VALUES (7)");
        try (Connection a = connect(); Connection b = connect(); Statement st = a.createStatement()) {
            st.execute("SET schema = 'sess'");
            assertEquals(List.of(List.of("7")), fetch(a, "SELECT k FROM lineitem"));
            st.execute("INSERT INTO lineitem VALUES (8)");
            assertEquals(List.of(List.of("2")), fetch(a, "SELECT count(*) FROM lineitem"));
            assertEquals(fetch(b, "SELECT count(*) FROM starling.lineitem"), fetch(b, "SELECT count(*) FROM lineitem"),
                    "another session reads the default schema");
        } finally {
            db.query("DROP TABLE sess.lineitem");
        }
    }

    @Test
    void explainAnalyzeRunsTheQueryUnderTheSessionsSettings() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("SET backend = 'cpu'");
            List<List<String>> lines = fetch(c, "EXPLAIN ANALYZE SELECT l_returnflag, count(*) FROM lineitem "
                    + "GROUP BY l_returnflag");
            assertTrue(lines.get(0).get(0).matches("ran in [0-9.]+ ms, 3 rows, state memory at most [0-9.]+ (B|KB|MB|GB)"),
                    lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.get(0).contains("backend=cpu (session backend is cpu)]  "
                    + "{ran on cpu; ")), lines.toString());
        }
    }

    @Test
    void aSessionKeepsWhatItSetWhenItEqualsTheServersSettingsOfTheMoment() throws Exception {
        String explain = "EXPLAIN SELECT sum(l_quantity) FROM lineitem";
        try (Connection chose = connect(); Connection follows = connect(); Statement st = chose.createStatement()) {
            st.execute("SET backend = 'auto'");
            db.setBackendMode(BackendMode.CPU);
            try {
                assertTrue(fetch(chose, explain).toString().contains("backend=cpu (no GPU)"), fetch(chose, explain).toString());
                assertTrue(fetch(follows, explain).toString().contains("backend=cpu (session backend is cpu)"),
                        fetch(follows, explain).toString());
            } finally {
                db.setBackendMode(BackendMode.AUTO);
            }
        }
    }

    @Test
    void resultMetadataNamesTypesWithTheirPrecisionAndScale() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT l_extendedprice, l_quantity * 2 AS q2, l_shipdate, l_comment, "
                     + "l_orderkey, CAST(l_linenumber AS INTEGER) AS n, l_tax > 0.05 AS taxed FROM lineitem LIMIT 1")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(List.of("DECIMAL", "DECIMAL", "DATE", "VARCHAR", "BIGINT", "INTEGER", "BOOLEAN"),
                    java.util.stream.IntStream.rangeClosed(1, 7).mapToObj(i -> name(md, i)).toList());
            assertEquals(15, md.getPrecision(1));
            assertEquals(2, md.getScale(1));
            assertEquals(2, md.getScale(2), "a product with an integer keeps the decimal's scale");
            assertEquals(44, md.getPrecision(4), "l_comment is VARCHAR(44)");
            assertEquals(19, md.getPrecision(5));
            assertEquals(0, md.getScale(5));
        }
    }

    private static String name(ResultSetMetaData md, int column) {
        try {
            return md.getColumnTypeName(column);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void analyzeConflictsAnswersThroughTheDriver() throws Exception {
        try (Connection c = connect()) {
            List<List<String>> rows = fetch(c, "ANALYZE CONFLICTS ON ssb.lineorder (lo_orderdate) FOR WRITE BUDGET 2");
            assertEquals(2, rows.size(), rows.toString());
            assertEquals("as stored", rows.get(0).get(0));
            assertEquals(8, rows.get(0).size());
            assertTrue(rows.get(1).get(0).startsWith("clones for write"), rows.toString());
        }
    }

    @Test
    void badSqlSaysWhereItIsWrong() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT foo\nFROM orders"));
            assertTrue(e.getMessage().contains("line 1, column 8: Column 'foo' not found in any table"), e.getMessage());
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders;")) {
                assertTrue(rs.next(), "a statement ending in a semicolon runs");
            }
            SQLException empty = assertThrows(SQLException.class, () -> st.executeQuery(" ; "));
            assertTrue(empty.getMessage().contains("empty statement: there is nothing to run"), empty.getMessage());
            SQLException cast = assertThrows(SQLException.class, () -> drain(st, "SELECT CAST(o_comment AS INTEGER) FROM orders"));
            assertTrue(cast.getMessage().contains("cannot cast '") && cast.getMessage().contains("' to INTEGER")
                    && !cast.getMessage().contains("java."), cast.getMessage());
            SQLException range = assertThrows(SQLException.class, () -> drain(st,
                    "SELECT CAST(o_totalprice AS DECIMAL(4,1)) FROM orders"));
            assertTrue(range.getMessage().contains(" to DECIMAL(4,1): out of range (at most 3 digits before the decimal point)")
                    && !range.getMessage().contains("java."), range.getMessage());
        }
    }

    private static void drain(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    @Test
    void aClientThatStopsReadingStopsTheQuery() throws Exception {
        // Every pair of lineitems with the same line number: 500 million rows, minutes of work
        // unless the client going away stops it.
        String sql = "SELECT a.l_orderkey, b.l_orderkey FROM lineitem a JOIN lineitem b ON a.l_linenumber = b.l_linenumber";
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            for (int i = 0; i < 10 && rs.next(); i++) {
                assertTrue(rs.getLong(1) > 0);
            }
            assertEquals(1, server.runningQueries());
            st.cancel();
        }
        long closed = System.nanoTime();
        while (server.runningQueries() > 0 && System.nanoTime() - closed < 5_000_000_000L) {
            Thread.sleep(10);
        }
        double stoppedAfter = (System.nanoTime() - closed) / 1e9;
        assertEquals(0, server.runningQueries(), "the query still runs " + stoppedAfter + " s after the client left");
        assertTrue(stoppedAfter < 1, "the query stopped " + stoppedAfter + " s after the client left");
        try (Connection c = connect()) {
            assertEquals(List.of(List.of("1")), fetch(c, "SELECT count(*) FROM region WHERE r_regionkey = 0"));
        }
    }

    @Test
    void cancelFlightInfoStopsTheQuery() throws Exception {
        String sql = "SELECT a.l_orderkey, b.l_orderkey FROM lineitem a JOIN lineitem b ON a.l_linenumber = b.l_linenumber";
        try (RootAllocator allocator = new RootAllocator();
             FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcInsecure("127.0.0.1", server.port())).build())) {
            // Cancelled before it is read: the read fails as CANCELLED and nothing runs.
            FlightInfo early = client.execute(sql);
            client.cancelFlightInfo(new CancelFlightInfoRequest(early));
            try (FlightStream stream = client.getStream(early.getEndpoints().get(0).getTicket())) {
                FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                    while (stream.next()) {
                        // drain
                    }
                });
                assertEquals(CallStatus.CANCELLED.code(), e.status().code());
            }
            // Cancelled while it streams: the query stops within a second.
            FlightInfo info = client.execute(sql);
            try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                assertTrue(stream.next());
                assertEquals(1, server.runningQueries());
                CancelFlightInfoResult result = client.cancelFlightInfo(new CancelFlightInfoRequest(info));
                assertEquals(CancelStatus.CANCELLING, result.getStatus());
                long start = System.nanoTime();
                while (server.runningQueries() > 0 && System.nanoTime() - start < 5_000_000_000L) {
                    Thread.sleep(10);
                }
                assertEquals(0, server.runningQueries());
                assertTrue(System.nanoTime() - start < 1_000_000_000L);
                assertThrows(FlightRuntimeException.class, () -> {
                    while (stream.next()) {
                        // the rest of what was sent, then the CANCELLED status
                    }
                });
            }
        }
    }

    @Test
    void concurrentClientsAllAnswer() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            String sql = TpchQueries.query(3);
            List<List<String>> expected = normalize(db.query(sql));
            List<Future<List<List<String>>>> answers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                answers.add(pool.submit(() -> {
                    try (Connection c = connect()) {
                        List<List<String>> last = null;
                        for (int k = 0; k < 5; k++) {
                            last = fetch(c, sql);
                        }
                        return last;
                    }
                }));
            }
            for (Future<List<List<String>>> f : answers) {
                assertEquals(expected, f.get());
            }
            assertEquals(0, server.bufferedBytes(), "result buffers left after every client finished");
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<List<String>> fetch(Connection c, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(text(rs.getObject(i)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static List<List<String>> normalize(QueryResult r) {
        return r.rows().stream().map(row -> row.stream().map(FlightSqlJdbcTest::text).toList()).toList();
    }

    /** One spelling per value whatever Java type carries it (JDBC and the embedded API differ in types, not values). */
    private static String text(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Double || v instanceof Float) {
            return String.valueOf(((Number) v).doubleValue());
        }
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
        }
        return v.toString();
    }
}

package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.engine.data.DataStatement;
import dev.starling.engine.data.DataStatementParser;
import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.exec.Settings;
import dev.starling.storage.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** CREATE / DROP TABLE, INSERT, GENERATE through the embedded API: values, conversions, errors. */
class DataStatementTest {

    private static List<List<Object>> rows(Starling db, String sql) {
        return db.query(sql).rows();
    }

    @Test
    void insertConvertsToTheColumnTypesAndFillsUnnamedColumnsWithNull() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (id INT PRIMARY KEY, price DECIMAL(10,2), d DATE, note VARCHAR(10), x DOUBLE)");
            assertEquals(List.of(List.of(3L)), rows(db, "INSERT INTO t (id, price, d) VALUES (1, 1.005, DATE '2024-02-29'), "
                    + "(2, 7, DATE '1970-01-01'), (3, -2.345, NULL)"));
            assertEquals(List.of(List.of(1L)), rows(db, "insert into t (note, id, x) select 'copied', id + 10, price * 2 from t where id = 1"));
            assertEquals(List.of(
                    Arrays.asList(1, new BigDecimal("1.01"), LocalDate.of(2024, 2, 29), null, null),
                    Arrays.asList(2, new BigDecimal("7.00"), LocalDate.of(1970, 1, 1), null, null),
                    Arrays.asList(3, new BigDecimal("-2.35"), null, null, null),
                    Arrays.asList(11, null, null, "copied", 2.02)), rows(db, "SELECT * FROM t ORDER BY id"));
        }
    }

    @Test
    void showTablesShowSchemasAndDescribeListTheCatalog() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE region (r_key INT PRIMARY KEY, r_name VARCHAR(25) NOT NULL)");
            db.query("CREATE TABLE nation (n_key INT PRIMARY KEY, n_region INT REFERENCES region (r_key), "
                    + "n_tax DECIMAL(12,2), n_since DATE)");
            db.query("CREATE TABLE s.x (k BIGINT)");
            db.query("INSERT INTO region VALUES (0, 'AFRICA'), (1, 'ASIA')");
            db.query("CREATE VIEW asia AS SELECT r_name FROM region WHERE r_key = 1");
            assertEquals(List.of(Arrays.asList("", "asia", "VIEW", null), List.of("", "nation", "BASE TABLE", 0L),
                    List.of("", "region", "BASE TABLE", 2L), List.of("s", "x", "BASE TABLE", 0L)), rows(db, "SHOW TABLES"));
            assertEquals(List.of(List.of(""), List.of("information_schema"), List.of("s")), rows(db, "show schemas;"));
            assertEquals(List.of(
                    Arrays.asList("n_key", "INTEGER", false, "PRIMARY KEY"),
                    Arrays.asList("n_region", "INTEGER", true, "REFERENCES region (r_key)"),
                    Arrays.asList("n_tax", "DECIMAL(12,2)", true, null),
                    Arrays.asList("n_since", "DATE", true, null)), rows(db, "DESCRIBE nation"));
            assertEquals(List.of("r_key", "r_name"), rows(db, "desc table region;").stream().map(r -> r.get(0)).toList());
            assertEquals(List.of("column_name", "column_type", "nullable", "key"),
                    db.query("DESCRIBE s.x").fields().stream().map(f -> f.name()).toList());
            StarlingSqlException missing = assertThrows(StarlingSqlException.class, () -> db.query("DESCRIBE nowhere"));
            assertEquals("table nowhere does not exist", missing.getMessage());
        }
    }

    @Test
    void ifExistsAndIfNotExists() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE IF NOT EXISTS a (k INT)");
            db.query("CREATE TABLE IF NOT EXISTS a (k INT, other INT)");
            assertEquals(1, db.catalog().require("a").schema().columns().size());
            StarlingSqlException again = assertThrows(StarlingSqlException.class, () -> db.query("CREATE TABLE a (k INT)"));
            assertEquals("table a already exists", again.getMessage());
            db.query("DROP TABLE a");
            db.query("DROP TABLE IF EXISTS a");
            StarlingSqlException gone = assertThrows(StarlingSqlException.class, () -> db.query("DROP TABLE a"));
            assertEquals("table a does not exist", gone.getMessage());
        }
    }

    @Test
    void endingSemicolonsAreLeftOutAndAnEmptyStatementSaysSo() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE s (k INT);");
            db.query("INSERT INTO s VALUES (1), (2) ;\n");
            assertEquals(List.of(List.of(2L)), rows(db, "SELECT COUNT(*) FROM s;;"));
            for (String empty : new String[] {"", "  ;  ", "-- nothing here\n;"}) {
                StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> db.query(empty));
                assertEquals("empty statement: there is nothing to run", e.getMessage());
            }
        }
    }

    @Test
    void errorsPointAtTheirPlace() {
        try (Starling db = Starling.inMemory()) {
            StarlingSqlException type = assertThrows(StarlingSqlException.class,
                    () -> db.query("CREATE TABLE t (\n  a INTEGR)"));
            assertEquals("line 2, column 5: unsupported column type 'integr'", type.getMessage());
            StarlingSqlException syntax = assertThrows(StarlingSqlException.class,
                    () -> db.query("CREATE TABLE t (a INT,)"));
            assertEquals("line 1, column 23: expected a column name or PRIMARY KEY or FOREIGN KEY but found ')'",
                    syntax.getMessage());
            db.query("CREATE TABLE t (a INT NOT NULL, b INT)");
            StarlingSqlException arity = assertThrows(StarlingSqlException.class,
                    () -> db.query("INSERT INTO t VALUES (1, 2, 3)"));
            assertEquals("INSERT INTO t names 2 columns but its query yields 3", arity.getMessage());
            StarlingSqlException inQuery = assertThrows(StarlingSqlException.class,
                    () -> db.query("INSERT INTO t SELECT nope FROM t"));
            assertEquals(1, inQuery.line());
            assertEquals(22, inQuery.column());
            StarlingSqlException notNull = assertThrows(StarlingSqlException.class,
                    () -> db.query("INSERT INTO t (b) VALUES (1)"));
            assertEquals("column a is NOT NULL", notNull.getMessage());
            assertEquals(0, db.catalog().require("t").rowCount());
        }
    }

    @Test
    void parametersAreBoundAsTypedValues() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE p (id INT, note VARCHAR(20), d DATE)");
            var insert = db.prepare("INSERT INTO p VALUES (?, 'a,(b)', ?), (?, ?, ?) -- a comment with ?");
            assertEquals(List.of(DataType.INTEGER, DataType.DATE, DataType.INTEGER, DataType.varchar(20), DataType.DATE),
                    insert.parameters());
            db.update(db.bind(insert, Arrays.asList(1, LocalDate.of(2020, 1, 2), 2, "it's", null)));
            var query = db.prepare("SELECT note FROM p WHERE id = ? AND note <> '?'");
            assertEquals(List.of(DataType.INTEGER), query.parameters());
            assertEquals(List.of(List.of("it's")), db.query(db.bind(query, List.of(2))).rows());
        }
    }

    @Test
    void setChangesTheEnginesSettings() {
        try (Starling db = Starling.inMemory()) {
            db.query("SET backend = 'cpu'");
            assertEquals(dev.starling.exec.BackendMode.CPU, db.settings().backend());
            assertTrue(db.explain("SELECT count(*) FROM (VALUES (1)) v(x)").contains("session backend is cpu"));
            db.query("set backend to GPU");
            assertEquals(dev.starling.exec.BackendMode.GPU, db.settings().backend());
            db.query("SET clone_layouts = on");
            db.query("SET clone_budget = 2.5");
            db.query("SET clone_window TO 16");
            db.query("SET oversized_join = partitioned");
            db.query("SET query_timeout = '1.5 min'");
            db.query("SET memory_limit = '1.5GiB'");
            assertEquals(new Settings(dev.starling.exec.BackendMode.GPU, Settings.CloneChoice.ON, 2.5, 16,
                    Settings.OversizedJoin.PARTITIONED, java.time.Duration.ofSeconds(90), 3L << 29, ""), db.settings());
            StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> db.query("SET parallelism = 4"));
            assertEquals("line 1, column 5: unknown setting 'parallelism': the settings are: backend, clone_layouts, "
                    + "clone_budget, clone_window, oversized_join, query_timeout, memory_limit, schema", e.getMessage());
            e = assertThrows(StarlingSqlException.class, () -> db.query("SET clone_budget = 0.5"));
            assertEquals("line 1, column 20: clone_budget must be between 1 and 64 entries per value, not 0.5", e.getMessage());
            e = assertThrows(StarlingSqlException.class, () -> db.query("SET clone_layouts = sometimes"));
            assertEquals("line 1, column 21: clone_layouts must be one of auto, on, off, not 'sometimes'", e.getMessage());
            e = assertThrows(StarlingSqlException.class, () -> db.query("SET oversized_join = spill"));
            assertEquals("line 1, column 22: oversized_join must be one of auto, hybrid, partitioned, not 'spill'",
                    e.getMessage());
            e = assertThrows(StarlingSqlException.class, () -> db.query("SET query_timeout = soon"));
            assertEquals("line 1, column 21: query_timeout must be a number of seconds, or a number with ms, s, min or h, "
                    + "not 'soon'", e.getMessage());
            assertEquals(2.5, db.settings().cloneBudget(), "a refused SET changes nothing");
        }
    }

    @Test
    void gpuResidencyIsParsedAndNeedsAGpu() {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE t (a INT)");
            StarlingSqlException option = assertThrows(StarlingSqlException.class,
                    () -> db.query("ALTER TABLE t SET (gpu_pinned = true)"));
            assertEquals("line 1, column 20: unknown table option 'gpu_pinned': the options are: gpu_resident",
                    option.getMessage());
            StarlingSqlException value = assertThrows(StarlingSqlException.class,
                    () -> db.query("ALTER TABLE t SET gpu_resident = maybe"));
            assertEquals("line 1, column 34: gpu_resident must be true or false, not 'maybe'", value.getMessage());
            StarlingSqlException missing = assertThrows(StarlingSqlException.class,
                    () -> db.query("ALTER TABLE nope SET (gpu_resident = false)"));
            assertEquals("table nope does not exist", missing.getMessage());
            if (db.gpu().isEmpty()) {
                StarlingSqlException noGpu = assertThrows(StarlingSqlException.class,
                        () -> db.query("alter table t set (GPU_RESIDENT = TRUE)"));
                assertEquals("there is no GPU backend here, so no table can be kept in GPU memory", noGpu.getMessage());
            }
            assertEquals(List.of(List.of(0L)), rows(db, "ALTER TABLE t SET (gpu_resident = false)"));
        }
    }

    @Test
    void analyzeConflictsMeasuresAColumnAndItsCloneLayout() {
        try (Starling db = Starling.inMemory()) {
            db.query("GENERATE SSB SCALE FACTOR 0.01");
            long rows = db.catalog().require("lineorder").rowCount();
            List<List<Object>> r = rows(db, "ANALYZE CONFLICTS ON lineorder (lo_custkey) FOR WRITE WINDOW 16 BUDGET 4");
            assertEquals(2, r.size());
            assertEquals("as stored", r.get(0).get(0));
            assertEquals((rows + 31) / 32, r.get(0).get(1));
            double banks = (Double) r.get(0).get(2);
            assertTrue(banks > 1 && banks <= 32, r.toString());
            assertTrue((Double) r.get(1).get(3) <= (Double) r.get(0).get(3), "write rounds fall: " + r);
            assertTrue((Double) r.get(1).get(6) <= 4, "within the budget: " + r);
            assertTrue((Double) r.get(1).get(7) >= 0, "the optimizer's time: " + r);
            assertEquals(1, rows(db, "analyze conflicts on lineorder (lo_shipmode)").size());
            StarlingSqlException column = assertThrows(StarlingSqlException.class,
                    () -> db.query("ANALYZE CONFLICTS ON lineorder (nope)"));
            assertEquals("table lineorder has no column nope", column.getMessage());
            StarlingSqlException budget = assertThrows(StarlingSqlException.class,
                    () -> db.query("ANALYZE CONFLICTS ON lineorder (lo_custkey) BUDGET 0.5"));
            assertEquals("line 1, column 52: a budget is from 1 to 64 copies per value, not 0.5", budget.getMessage());
        }
    }

    @Test
    void grantAndRevokeParseAndAreTheServersToRun() {
        assertEquals(Optional.of(new DataStatement.GrantRole("admin", "analyst", true)),
                DataStatementParser.parse("GRANT admin TO analyst"));
        assertEquals(Optional.of(new DataStatement.GrantRole("admin", "Ops", false)),
                DataStatementParser.parse("revoke ADMIN from \"Ops\""));
        try (Starling db = Starling.inMemory()) {
            StarlingSqlException to = assertThrows(StarlingSqlException.class, () -> db.query("GRANT admin analyst"));
            assertEquals("line 1, column 13: expected to but found 'analyst'", to.getMessage());
            StarlingSqlException embedded = assertThrows(StarlingSqlException.class, () -> db.query("GRANT admin TO analyst"));
            assertEquals("GRANT sets the role of a user in a server's auth.users: run it as an administrator connected "
                    + "through Flight SQL", embedded.getMessage());
        }
    }

    @Test
    void generateMakesABenchmarkInASchema() {
        try (Starling db = Starling.inMemory()) {
            long rows = (Long) rows(db, "GENERATE SSB SCALE FACTOR 0.001 SCHEMA s").get(0).get(0);
            assertEquals(rows, db.catalog().tables().stream().mapToLong(t -> t.rowCount()).sum());
            assertEquals(List.of(List.of(5L)), rows(db, "SELECT count(DISTINCT c_region) FROM s.customer"));
        }
    }
}

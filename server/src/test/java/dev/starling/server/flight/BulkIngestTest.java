package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Flight SQL's bulk ingest (what pyarrow/ADBC's {@code adbc_ingest} sends) through the Arrow Flight
 * SQL Java client: a missing table is made from the upload's schema, an existing one is refused,
 * appended to or replaced as the options say, every value converted and checked as an INSERT's; a
 * refused upload leaves the tables as they were.
 */
class BulkIngestTest {
    private static final Schema CITIES = new Schema(List.of(
            new Field("Id", FieldType.notNullable(new ArrowType.Int(32, true)), null),
            new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("founded", FieldType.nullable(new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)), null),
            new Field("area", FieldType.nullable(new ArrowType.Decimal(7, 2, 128)), null)));

    @Test
    void uploadsCreateAppendAndReplaceTables() throws Exception {
        try (Starling db = Starling.inMemory(); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             BufferAllocator allocator = new RootAllocator();
             FlightClient flight = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
             FlightSqlClient sql = new FlightSqlClient(flight);
             VectorSchemaRoot cities = VectorSchemaRoot.create(CITIES, allocator)) {
            // the server says it takes uploads, outside transactions (it has none)
            assertEquals(List.of(true, false), sqlInfo(sql, FlightSql.SqlInfo.FLIGHT_SQL_SERVER_BULK_INGESTION,
                    FlightSql.SqlInfo.FLIGHT_SQL_SERVER_INGEST_TRANSACTIONS_SUPPORTED));
            fill(cities, new int[] {1, 2}, new String[] {"Lyon", null}, new int[] {-20000, 0}, new String[] {"47.87", null});
            assertEquals(2, sql.executeIngest(cities, options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_UNSPECIFIED,
                    TableExistsOption.TABLE_EXISTS_OPTION_UNSPECIFIED, "cities")));
            assertEquals(List.of(List.of(1, "Lyon", java.time.LocalDate.ofEpochDay(-20000), new BigDecimal("47.87")),
                            java.util.Arrays.asList(2, null, java.time.LocalDate.ofEpochDay(0), null)),
                    db.query("SELECT id, name, founded, area FROM cities ORDER BY id").rows());

            FlightRuntimeException exists = assertThrows(FlightRuntimeException.class, () -> sql.executeIngest(cities,
                    options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_FAIL, "cities")));
            assertEquals(FlightStatusCode.INVALID_ARGUMENT, exists.status().code());
            assertTrue(exists.status().description().contains("already exists"), exists.status().description());

            fill(cities, new int[] {3}, new String[] {"Osaka"}, new int[] {100}, new String[] {"225.21"});
            assertEquals(1, sql.executeIngest(cities, options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL,
                    TableExistsOption.TABLE_EXISTS_OPTION_APPEND, "cities")));
            assertEquals(3L, db.query("SELECT count(*) FROM cities").rows().get(0).get(0));

            // a NULL in the NOT NULL id (the upload's schema made it so) fails the whole upload
            fill(cities, new int[] {4, 5}, new String[] {"Ok", "Bad"}, new int[] {1, 2}, new String[] {"1.00", "2.00"});
            ((IntVector) cities.getVector(0)).setNull(1);
            FlightRuntimeException notNull = assertThrows(FlightRuntimeException.class, () -> sql.executeIngest(cities,
                    options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL, TableExistsOption.TABLE_EXISTS_OPTION_APPEND, "cities")));
            assertTrue(notNull.status().description().contains("row 2, column id: NULL in a NOT NULL column"),
                    notNull.status().description());
            assertEquals(3L, db.query("SELECT count(*) FROM cities").rows().get(0).get(0));

            fill(cities, new int[] {9}, new String[] {"Nowhere"}, new int[] {1}, new String[] {"1.00"});
            FlightRuntimeException missing = assertThrows(FlightRuntimeException.class, () -> sql.executeIngest(cities,
                    options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL, TableExistsOption.TABLE_EXISTS_OPTION_APPEND, "towns")));
            assertTrue(missing.status().description().contains("does not exist"), missing.status().description());
            assertTrue(db.catalog().table("towns").isEmpty());
            FlightRuntimeException badName = assertThrows(FlightRuntimeException.class, () -> sql.executeIngest(cities,
                    options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_FAIL, "a b")));
            assertTrue(badName.status().description().contains("'a b' is not a table name"), badName.status().description());

            assertEquals(1, sql.executeIngest(cities, options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL,
                    TableExistsOption.TABLE_EXISTS_OPTION_REPLACE, "cities")));
            assertEquals(List.of(List.of(9, "Nowhere")), db.query("SELECT id, name FROM cities").rows());
        }
    }

    @Test
    void aTypeStarlingHasNotIsRefusedByName() throws Exception {
        Schema floats = new Schema(List.of(new Field("x", FieldType.nullable(
                new ArrowType.Time(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, 64)), null)));
        try (Starling db = Starling.inMemory(); FlightSqlServer server = FlightSqlServer.start(db, "127.0.0.1", 0);
             BufferAllocator allocator = new RootAllocator();
             FlightClient flight = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
             FlightSqlClient sql = new FlightSqlClient(flight);
             VectorSchemaRoot root = VectorSchemaRoot.create(floats, allocator)) {
            root.setRowCount(0);
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> sql.executeIngest(root,
                    options(TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE, TableExistsOption.TABLE_EXISTS_OPTION_FAIL, "floats")));
            assertEquals(FlightStatusCode.INVALID_ARGUMENT, e.status().code());
            assertTrue(e.status().description().contains("column x holds Time(MICROSECOND, 64)"), e.status().description());
            assertFalse(e.status().description().contains("Exception"), e.status().description());
            assertTrue(db.catalog().table("floats").isEmpty());
        }
    }

    /** The server's answers to {@code infos}, in their order. */
    private static List<Object> sqlInfo(FlightSqlClient sql, FlightSql.SqlInfo... infos) throws Exception {
        java.util.Map<Long, Object> byId = new java.util.HashMap<>();
        org.apache.arrow.flight.FlightInfo info = sql.getSqlInfo(infos);
        try (org.apache.arrow.flight.FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket())) {
            while (stream.next()) {
                VectorSchemaRoot root = stream.getRoot();
                for (int r = 0; r < root.getRowCount(); r++) {
                    byId.put(((Number) root.getVector(0).getObject(r)).longValue(), root.getVector(1).getObject(r));
                }
            }
        }
        return java.util.Arrays.stream(infos).map(i -> byId.get((long) i.getNumber())).toList();
    }

    private static FlightSqlClient.ExecuteIngestOptions options(TableNotExistOption notExist, TableExistsOption exists,
                                                                String table) {
        return new FlightSqlClient.ExecuteIngestOptions(table, TableDefinitionOptions.newBuilder()
                .setIfNotExist(notExist).setIfExists(exists).build(), null, null, null);
    }

    private static void fill(VectorSchemaRoot root, int[] ids, String[] names, int[] days, String[] areas) {
        root.allocateNew();
        IntVector id = (IntVector) root.getVector(0);
        VarCharVector name = (VarCharVector) root.getVector(1);
        DateDayVector founded = (DateDayVector) root.getVector(2);
        DecimalVector area = (DecimalVector) root.getVector(3);
        for (int r = 0; r < ids.length; r++) {
            id.setSafe(r, ids[r]);
            if (names[r] == null) {
                name.setNull(r);
            } else {
                name.setSafe(r, names[r].getBytes(StandardCharsets.UTF_8));
            }
            founded.setSafe(r, days[r]);
            if (areas[r] == null) {
                area.setNull(r);
            } else {
                area.setSafe(r, new BigDecimal(areas[r]));
            }
        }
        root.setRowCount(ids.length);
    }
}

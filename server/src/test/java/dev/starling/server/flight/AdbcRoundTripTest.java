package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.engine.Starling;
import dev.starling.exec.ArrowValues;
import dev.starling.server.config.ServerConfig;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.adbc.core.AdbcConnection;
import org.apache.arrow.adbc.core.AdbcDatabase;
import org.apache.arrow.adbc.core.AdbcDriver;
import org.apache.arrow.adbc.core.AdbcStatement;
import org.apache.arrow.adbc.core.BulkIngestMode;
import org.apache.arrow.adbc.driver.flightsql.FlightSqlDriver;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round trip through a second client stack, Apache Arrow ADBC's Flight SQL driver (as pyarrow's
 * {@code adbc_driver_flightsql} speaks to a server): a table uploaded by bulk ingest, queried,
 * exported with COPY to an Arrow IPC file and to a Parquet file, read back with Arrow's own reader
 * and with DuckDB's Parquet reader, equals what was uploaded.
 */
class AdbcRoundTripTest {
    @TempDir
    Path imports;

    @Test
    void uploadQueryAndExportThroughAdbc() throws Exception {
        ServerConfig config = new ServerConfig(new ServerConfig.Listen("127.0.0.1", 0), null, null, null, null, null,
                null, null, null, new ServerConfig.Load(List.of(imports)), null);
        // ADBC's Java driver ingests by CREATE TABLE and a prepared INSERT, naming every integer
        // type INT and a string CLOB (its default SQL quirks; pyarrow's driver sends Flight SQL's
        // ingest command, BulkIngestTest): integers and strings, then
        List<List<Object>> towns = List.of(Arrays.asList(1, "Lyon", 522_000), Arrays.asList(2, null, 7),
                Arrays.asList(3, "Ōsaka", null));
        Schema schema = new Schema(List.of(
                new Field("id", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
                new Field("people", FieldType.nullable(new ArrowType.Int(32, true)), null)));
        try (Starling db = Starling.inMemory(); FlightSqlServer server = FlightSqlServer.start(db, config);
             BufferAllocator allocator = new RootAllocator()) {
            Map<String, Object> params = new HashMap<>();
            AdbcDriver.PARAM_URI.set(params, "grpc+tcp://127.0.0.1:" + server.port());
            try (AdbcDatabase database = new FlightSqlDriver(allocator).open(params);
                 AdbcConnection connection = database.connect();
                 VectorSchemaRoot upload = VectorSchemaRoot.create(schema, allocator)) {
                fill(upload, towns);
                try (AdbcStatement ingest = connection.bulkIngest("towns", BulkIngestMode.CREATE)) {
                    ingest.bind(upload);
                    assertEquals(3, ingest.executeUpdate().getAffectedRows());
                }
                try (AdbcStatement query = connection.createStatement()) {
                    query.setSqlQuery("SELECT id, name, people FROM towns ORDER BY id");
                    try (AdbcStatement.QueryResult result = query.executeQuery()) {
                        assertEquals(towns, rows(result.getReader()));
                    }
                }
                for (String file : List.of("towns.arrow", "towns.parquet")) {
                    try (AdbcStatement copy = connection.createStatement()) {
                        copy.setSqlQuery("COPY (SELECT * FROM towns ORDER BY id) TO '" + file + "'");
                        copy.executeUpdate();
                    }
                }
            }
            try (FileChannel file = FileChannel.open(imports.resolve("towns.arrow"));
                 ArrowFileReader reader = new ArrowFileReader(file, allocator)) {
                assertEquals(towns, rows(reader));
            }
            assertEquals(towns, parquetRows(imports.resolve("towns.parquet")));
        }
    }

    /** The rows of a Parquet file as DuckDB's reader, which is not the one Starling writes with, reads them. */
    private static List<List<Object>> parquetRows(Path file) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement();
             ResultSet r = s.executeQuery("SELECT * FROM read_parquet('" + file + "')")) {
            while (r.next()) {
                rows.add(Arrays.asList(r.getObject(1), r.getObject(2), r.getObject(3)));
            }
        }
        return rows;
    }

    private static List<List<Object>> rows(ArrowReader reader) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        while (reader.loadNextBatch()) {
            rows.addAll(ArrowValues.rows(reader.getVectorSchemaRoot()));
        }
        return rows;
    }

    private static void fill(VectorSchemaRoot root, List<List<Object>> rows) {
        root.allocateNew();
        IntVector id = (IntVector) root.getVector(0);
        VarCharVector name = (VarCharVector) root.getVector(1);
        IntVector people = (IntVector) root.getVector(2);
        for (int r = 0; r < rows.size(); r++) {
            id.setSafe(r, (Integer) rows.get(r).get(0));
            if (rows.get(r).get(1) == null) {
                name.setNull(r);
            } else {
                name.setSafe(r, ((String) rows.get(r).get(1)).getBytes(StandardCharsets.UTF_8));
            }
            if (rows.get(r).get(2) == null) {
                people.setNull(r);
            } else {
                people.setSafe(r, (Integer) rows.get(r).get(2));
            }
        }
        root.setRowCount(rows.size());
    }
}

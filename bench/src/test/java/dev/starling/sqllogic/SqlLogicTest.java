package dev.starling.sqllogic;

import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every {@code sqllogic/*.slt} file: one dynamic test per record, named {@code file:line}.
 * Each file gets its own Starling and DuckDB; its records run in file order.
 */
class SqlLogicTest {
    private static final List<SqlLogicSession> SESSIONS = new ArrayList<>();

    @TestFactory
    Stream<DynamicContainer> sqlLogicFiles() throws IOException, URISyntaxException {
        Path dir = Path.of(SqlLogicTest.class.getResource("/sqllogic").toURI());
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.getFileName().toString().endsWith(".slt")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IllegalStateException("no .slt files in " + dir);
        }
        return files.stream().map(SqlLogicTest::file);
    }

    private static DynamicContainer file(Path path) {
        String name = path.getFileName().toString();
        List<SqlLogicRecord> records;
        try {
            records = SqlLogicParser.parse(name, Files.readString(path));
        } catch (IOException | IllegalArgumentException e) {
            return dynamicContainer(name, Stream.of(dynamicTest(name, () -> {
                throw e;
            })));
        }
        SqlLogicSession session = new SqlLogicSession(name);
        SESSIONS.add(session);
        return dynamicContainer(name, path.toUri(), records.stream().map(r -> dynamicTest(name + ":" + r.line(),
                URI.create(path.toUri() + "?line=" + r.line()), () -> session.run(r))));
    }

    @AfterAll
    static void close() throws SQLException {
        for (SqlLogicSession s : SESSIONS) {
            s.close();
        }
        SESSIONS.clear();
    }
}

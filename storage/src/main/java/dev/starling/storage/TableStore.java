package dev.starling.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Table versions in a data directory, one file per table. See {@link TableFile} for the format. */
final class TableStore {
    private final Path dir;

    TableStore(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    Path directory() {
        return dir;
    }

    List<Table> loadAll() throws IOException {
        throw new UnsupportedOperationException("TODO");
    }

    void write(Table table) throws IOException {
        throw new UnsupportedOperationException("TODO");
    }

    void delete(String name) throws IOException {
        throw new UnsupportedOperationException("TODO");
    }
}

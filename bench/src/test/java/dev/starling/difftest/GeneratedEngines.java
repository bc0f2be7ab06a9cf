package dev.starling.difftest;

import dev.starling.storage.Catalog;
import java.sql.SQLException;
import java.util.function.ObjDoubleConsumer;

/**
 * Starling and DuckDB over one generated data set at a time. Tests asking for the scale factor that
 * is loaded share it; asking for another replaces it. Parameterized tests run in the order of their
 * arguments, so arguments grouped by scale factor generate each data set once.
 */
final class GeneratedEngines implements AutoCloseable {
    private final ObjDoubleConsumer<Catalog> generator;
    private EnginePair engines;
    private double scaleFactor;

    /** @param generator fills a catalog with the data set at a scale factor */
    GeneratedEngines(ObjDoubleConsumer<Catalog> generator) {
        this.generator = generator;
    }

    EnginePair at(double scaleFactor) throws SQLException {
        if (engines == null || scaleFactor != this.scaleFactor) {
            close();
            engines = EnginePair.open();
            generator.accept(engines.starling().catalog(), scaleFactor);
            engines.mirror();
            this.scaleFactor = scaleFactor;
        }
        return engines;
    }

    @Override
    public void close() throws SQLException {
        if (engines != null) {
            engines.close();
            engines = null;
        }
    }
}

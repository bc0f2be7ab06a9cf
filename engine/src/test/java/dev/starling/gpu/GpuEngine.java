package dev.starling.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.engine.Starling;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The in-memory engine and its GPU backend that a GPU test class runs against, opened before the
 * class (whose own {@code @BeforeAll} methods, which run after, fill the catalog) and closed after
 * it; without a GPU the class is skipped. Register it as a static field with
 * {@code @RegisterExtension}.
 */
final class GpuEngine implements BeforeAllCallback, AfterAllCallback {
    private Starling db;
    private GpuBackend gpu;

    @Override
    public void beforeAll(ExtensionContext context) {
        db = Starling.inMemory();
        gpu = db.gpu().orElse(null);
        if (gpu == null) {
            db.close();
            db = null;
        }
        assumeTrue(gpu != null, "no GPU");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (db != null) {
            db.close();
            db = null;
        }
    }

    Starling db() {
        return db;
    }

    GpuBackend gpu() {
        return gpu;
    }
}

package dev.starling.server;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.TpchGenerator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates the demo dataset into an empty catalog so a newcomer can query at once: TPC-H with
 * plain table names and SSB in schema {@code ssb} (both have customer, supplier and part tables),
 * all or none ({@link dev.starling.storage.Catalog#createAll}).
 */
final class DemoData {
    private static final Logger LOG = LoggerFactory.getLogger(DemoData.class);

    private DemoData() { }

    static void ensure(Starling db, double scaleFactor) {
        if (!db.catalog().tables().isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        LOG.info("Empty data directory: generating TPC-H and SSB (schema ssb) at scale factor {} ...", scaleFactor);
        // all or none: a crash half-way leaves an empty directory, which the next start fills again
        db.catalog().createAll(List.of(), () -> {
            TpchGenerator.generate(db.catalog(), scaleFactor, "");
            SsbGenerator.generate(db.catalog(), scaleFactor, "ssb");
        });
        LOG.info("Demo dataset ready in {} s", String.format("%.1f", (System.nanoTime() - start) / 1e9));
    }
}

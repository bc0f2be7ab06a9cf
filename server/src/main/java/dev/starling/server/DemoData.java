package dev.starling.server;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.TpchGenerator;
import java.io.PrintStream;

/**
 * Generates the demo dataset into an empty catalog so a newcomer can query at once: TPC-H with
 * plain table names and SSB in schema {@code ssb} (both have customer, supplier and part tables).
 */
final class DemoData {
    private DemoData() { }

    static void ensure(Starling db, double scaleFactor, PrintStream out) {
        if (!db.catalog().tables().isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        out.printf("Empty data directory: generating TPC-H and SSB (schema ssb) at scale factor %s ...%n", scaleFactor);
        TpchGenerator.generate(db.catalog(), scaleFactor, "");
        SsbGenerator.generate(db.catalog(), scaleFactor, "ssb");
        out.printf("Demo dataset ready in %.1f s.%n", (System.nanoTime() - start) / 1e9);
    }
}

package dev.starling.bench;

import dev.starling.storage.Catalog;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import dev.starling.storage.gen.SsbQueries;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;

/** A benchmark's data generator and its queries by name, in their canonical order. */
enum Workload {
    TPCH {
        @Override
        void generate(Catalog catalog, double scaleFactor) {
            TpchGenerator.generate(catalog, scaleFactor, "");
        }

        @Override
        Map<String, String> queries() {
            Map<String, String> queries = new LinkedHashMap<>();
            IntStream.rangeClosed(1, 22).forEach(n -> queries.put("Q" + n, TpchQueries.query(n)));
            return queries;
        }
    },
    SSB {
        @Override
        void generate(Catalog catalog, double scaleFactor) {
            SsbGenerator.generate(catalog, scaleFactor, "");
        }

        @Override
        Map<String, String> queries() {
            Map<String, String> queries = new LinkedHashMap<>();
            SsbQueries.names().forEach(name -> queries.put("Q" + name, SsbQueries.query(name)));
            return queries;
        }
    };

    abstract void generate(Catalog catalog, double scaleFactor);

    abstract Map<String, String> queries();
}

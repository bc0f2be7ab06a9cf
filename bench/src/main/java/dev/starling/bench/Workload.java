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
        Map<String, String> queries(double scaleFactor) {
            Map<String, String> queries = new LinkedHashMap<>();
            IntStream.rangeClosed(1, 22).forEach(n -> queries.put("Q" + n, TpchQueries.query(n, scaleFactor)));
            return queries;
        }
    },
    /**
     * The first rows of TPC-H's lineitem in an order (ORDER BY ... LIMIT over rows, no
     * aggregation), which a GPU selection cuts on the device: by a decimal over every row, the same
     * with a filter and a string column, by a computed key, and every column by a date.
     */
    TOPN {
        @Override
        void generate(Catalog catalog, double scaleFactor) {
            TPCH.generate(catalog, scaleFactor);
        }

        @Override
        Map<String, String> queries(double scaleFactor) {
            Map<String, String> queries = new LinkedHashMap<>();
            queries.put("T1", "SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem "
                    + "ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 10");
            queries.put("T2", "SELECT l_orderkey, l_linenumber, l_extendedprice, l_shipdate, l_comment FROM lineitem "
                    + "WHERE l_shipdate >= DATE '1995-01-01' ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 100");
            queries.put("T3", "SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount) AS rev FROM lineitem "
                    + "WHERE l_quantity < 10 ORDER BY rev, l_orderkey, l_linenumber LIMIT 10");
            queries.put("T4", "SELECT * FROM lineitem ORDER BY l_shipdate DESC, l_orderkey, l_linenumber LIMIT 10");
            return queries;
        }
    },
    /**
     * Millions of TPC-H lineitem rows in an order (ORDER BY over rows, no aggregation), which a GPU
     * selection sorts on the device: by a decimal, by a string and two more keys, and by a date
     * with an offset and a limit of a hundred thousand rows; and the groups of an aggregation by
     * part (2M at SF 10), which reach their sort on the host and are ordered on the device.
     */
    SORT {
        @Override
        void generate(Catalog catalog, double scaleFactor) {
            TPCH.generate(catalog, scaleFactor);
        }

        @Override
        Map<String, String> queries(double scaleFactor) {
            Map<String, String> queries = new LinkedHashMap<>();
            queries.put("S1", "SELECT l_orderkey, l_linenumber, l_extendedprice FROM lineitem "
                    + "WHERE l_shipdate >= DATE '1998-01-01' ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber");
            queries.put("S2", "SELECT l_orderkey, l_linenumber, l_shipmode, l_quantity FROM lineitem WHERE l_quantity < 3 "
                    + "ORDER BY l_shipmode, l_quantity DESC, l_orderkey, l_linenumber");
            queries.put("S3", "SELECT l_orderkey, l_linenumber, l_shipdate FROM lineitem WHERE l_discount = 0.10 "
                    + "ORDER BY l_shipdate, l_orderkey, l_linenumber LIMIT 100000 OFFSET 1000");
            queries.put("S4", "SELECT l_partkey, SUM(l_quantity) AS q, COUNT(*) AS c FROM lineitem GROUP BY l_partkey "
                    + "ORDER BY q DESC, l_partkey");
            return queries;
        }
    },
    SSB {
        @Override
        void generate(Catalog catalog, double scaleFactor) {
            SsbGenerator.generate(catalog, scaleFactor, "");
        }

        @Override
        Map<String, String> queries(double scaleFactor) {
            Map<String, String> queries = new LinkedHashMap<>();
            SsbQueries.names().forEach(name -> queries.put("Q" + name, SsbQueries.query(name)));
            return queries;
        }
    };

    abstract void generate(Catalog catalog, double scaleFactor);

    /** The benchmark whose tables it reads, as GENERATE names it: tpch, or ssb. */
    String dataset() {
        return this == SSB ? "ssb" : "tpch";
    }

    /** Its queries for data at {@code scaleFactor}, whose substitution parameters may depend on it. */
    abstract Map<String, String> queries(double scaleFactor);
}

package dev.starling.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.storage.Table;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.List;
import org.junit.jupiter.api.Test;

/** lineitem's Q6 columns copied in ship date order: the same rows, ordered, so Q6 answers alike over both. */
class SortedCopyTest {

    @Test
    void q6AnswersAlikeOverTheSortedCopy() {
        try (Starling db = Starling.inMemory()) {
            db.setBackendMode(dev.starling.exec.BackendMode.CPU);
            TpchGenerator.generate(db.catalog(), 0.01, "");
            Table copy = SortedCopy.of(db.catalog().require("lineitem"), "lineitem_by_shipdate",
                    List.of("l_shipdate", "l_discount", "l_quantity", "l_extendedprice"), db.catalog());
            db.catalog().put(copy);
            assertEquals(db.catalog().require("lineitem").rowCount(), copy.rowCount());
            long last = Long.MIN_VALUE;
            for (var chunk : copy.column(0).chunks()) {
                for (int r = 0; r < chunk.rows(); r++) {
                    assertTrue(chunk.getAsLong(r) >= last, "ordered by ship date");
                    last = chunk.getAsLong(r);
                }
            }
            String q6 = TpchQueries.query(6, 0.01);
            assertEquals(db.query(q6).rows(), db.query(q6.replace("lineitem", "lineitem_by_shipdate")).rows());
        }
    }
}

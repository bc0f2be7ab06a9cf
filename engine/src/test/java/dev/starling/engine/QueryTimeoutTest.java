package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.QueryTimeoutException;
import dev.starling.storage.gen.TpchGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The session's query_timeout stops a query's work, whatever operator it is in, and the next query runs. */
class QueryTimeoutTest {

    @Test
    void aQueryPastItsTimeLimitStops() {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            db.query("SET query_timeout = '200ms'");
            // each minutes of work: a join's probe into a count, a sort, a group-by
            for (String sql : List.of(
                    "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_linenumber = b.l_linenumber",
                    "SELECT a.l_orderkey, b.l_orderkey FROM lineitem a JOIN lineitem b ON a.l_linenumber = b.l_linenumber "
                            + "ORDER BY 1, 2 LIMIT 5",
                    "SELECT a.l_orderkey, b.l_partkey, count(*) FROM lineitem a JOIN lineitem b "
                            + "ON a.l_linenumber = b.l_linenumber GROUP BY 1, 2")) {
                long start = System.nanoTime();
                QueryTimeoutException e = assertThrows(QueryTimeoutException.class, () -> db.query(sql), sql);
                double seconds = (System.nanoTime() - start) / 1e9;
                assertTrue(e.getMessage().contains("time limit of 200 ms"), e.getMessage());
                assertTrue(seconds < 5, sql + " stopped after " + seconds + " s");
            }
            assertEquals(List.of(List.of(5L)), db.query("SELECT count(*) FROM region").rows());
        }
    }
}

package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.QueryResult;
import dev.starling.storage.load.LoadException;
import dev.starling.storage.load.LoadFormat;
import dev.starling.storage.load.TableLoader;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Through the embedded API: data loaded into a data directory answers the same after a restart. */
class RestartTest {
    private static final int[] QUERIES = {1, 3, 5, 13, 18};

    @TempDir
    Path dataDir;

    @Test
    void generatedAndLoadedTablesAnswerTheSameAfterRestart() {
        List<QueryResult> before = new ArrayList<>();
        try (Starling db = Starling.open(dataDir)) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            new TableLoader(db.catalog()).append("region",
                    new StringReader("5|ANTARCTICA|cold and quiet|\n"), "extra-region.tbl", LoadFormat.TBL);
            for (int q : QUERIES) {
                before.add(db.query(TpchQueries.query(q)));
            }
            before.add(db.query("select r_regionkey, r_name from region order by r_regionkey"));
        }
        try (Starling db = Starling.open(dataDir)) {
            for (int i = 0; i < QUERIES.length; i++) {
                assertEquals(before.get(i).rows(), db.query(TpchQueries.query(QUERIES[i])).rows(), "Q" + QUERIES[i]);
            }
            QueryResult regions = db.query("select r_regionkey, r_name from region order by r_regionkey");
            assertEquals(before.getLast().rows(), regions.rows());
            assertEquals(List.of(5, "ANTARCTICA"), regions.rows().getLast());
        }
    }

    @Test
    void aLoadThatFailsPartWayLeavesTheOldTableAcrossARestart() {
        try (Starling db = Starling.open(dataDir)) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            StringBuilder rows = new StringBuilder();
            for (int k = 100; k < 200; k++) {
                rows.append(k).append("|NATION").append(k).append("|1|fine|\n");
            }
            rows.append("200|BROKEN|not-a-number|oops|\n");
            LoadException e = assertThrows(LoadException.class, () -> new TableLoader(db.catalog())
                    .append("nation", new StringReader(rows.toString()), "nations.tbl", LoadFormat.TBL));
            assertTrue(e.getMessage().contains("nations.tbl line 101"), e.getMessage());
            assertEquals(25L, count(db, "nation"));
        }
        try (Starling db = Starling.open(dataDir)) {
            assertEquals(25L, count(db, "nation"));
        }
    }

    private static long count(Starling db, String table) {
        return ((Number) db.query("select count(*) from " + table).rows().get(0).get(0)).longValue();
    }
}

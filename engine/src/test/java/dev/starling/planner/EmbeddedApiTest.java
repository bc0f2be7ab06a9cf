package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.QueryResult;
import dev.starling.storage.ForeignKey;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The embedded API: EXPLAIN and queries run end to end on the CPU executor. */
class EmbeddedApiTest {
    private Starling db;

    @BeforeEach
    void open() {
        db = Starling.inMemory();
        TestCatalogs.table(db.catalog(), "region", 5, "r_regionkey int, r_name varchar(25)", "r_regionkey");
        TestCatalogs.table(db.catalog(), "nation", 25, "n_nationkey int, n_name varchar(25), n_regionkey int, "
                + "n_balance decimal(12,2)", "n_nationkey", ForeignKey.of("n_regionkey", "region", "r_regionkey"));
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static final String JOIN = "select r_name, count(*) as nations from nation join region "
            + "on n_regionkey = r_regionkey group by r_name order by r_name";

    @Test
    void explainShowsThePlanWithTheBackendOfEachPipeline() {
        String plan = db.explain(JOIN);
        assertTrue(plan.contains("DenseJoin INNER"), plan);
        assertTrue(plan.contains("Scan nation") && plan.contains("Scan region"), plan);
        assertTrue(plan.lines().filter(l -> l.contains("backend=cpu")).count() >= 3, plan);
        assertTrue(plan.lines().skip(1).allMatch(l -> l.startsWith("  ")), plan);
    }

    @Test
    void explainStatementReturnsThePlanAsOneColumn() {
        QueryResult r = db.query("EXPLAIN " + JOIN);
        assertEquals(1, r.fields().size());
        assertEquals(db.explain(JOIN), String.join("\n", r.rows().stream().map(row -> (String) row.get(0)).toList()) + "\n");
    }

    @Test
    void plansAgainstTheCatalogsCurrentTables() {
        TestCatalogs.table(db.catalog(), "extra", 3, "e_key int, e_value int", "e_key");
        assertTrue(db.explain("select e_value from extra").contains("Scan extra"));
    }

    @Test
    void runsADenseJoinWithAggregationEndToEnd() {
        QueryResult r = db.query(JOIN);
        // TestCatalogs spreads 25 nations over the 5 regions evenly (key * 7 mod 5 cycles).
        assertEquals(5, r.rows().size(), r.rows().toString());
        for (List<Object> row : r.rows()) {
            assertEquals(5L, ((Number) row.get(1)).longValue(), r.rows().toString());
        }
        assertEquals(r.rows().stream().map(row -> (String) row.get(0)).sorted().toList(),
                r.rows().stream().map(row -> (String) row.get(0)).toList());
    }

    @Test
    void decimalArithmeticFollowsTheTypeRules() {
        QueryResult r = db.query("select sum(n_balance) as total, avg(n_balance) as mean, "
                + "sum(n_balance) / count(*) as ratio from nation where n_nationkey < 4");
        assertEquals(List.of("DECIMAL(18,2)", "DOUBLE", "DOUBLE"),
                r.fields().stream().map(f -> f.type().toString()).toList());
        BigDecimal total = (BigDecimal) r.rows().get(0).get(0);
        assertEquals(0, total.compareTo(BigDecimal.valueOf(((Double) r.rows().get(0).get(1)) * 4)), r.rows().toString());
    }

    @Test
    void schemaQualifiedTablesLiveBesideUnqualifiedOnesOfTheSameName() {
        TestCatalogs.table(db.catalog(), "ssb.region", 3, "r_regionkey int, r_name varchar(25)", "r_regionkey");
        TestCatalogs.table(db.catalog(), "ssb.nation", 6, "n_nationkey int, n_regionkey int", "n_nationkey",
                ForeignKey.of("n_regionkey", "ssb.region", "r_regionkey"));
        assertEquals(3L, ((Number) db.query("select count(*) from ssb.region").rows().get(0).get(0)).longValue());
        assertEquals(5L, ((Number) db.query("select count(*) from region").rows().get(0).get(0)).longValue());
        QueryResult joined = db.query("select count(*) from ssb.nation n join ssb.region r on n.n_regionkey = r.r_regionkey");
        assertEquals(6L, ((Number) joined.rows().get(0).get(0)).longValue());
        assertTrue(db.explain("select count(*) from ssb.nation n join ssb.region r on n.n_regionkey = r.r_regionkey")
                .contains("DenseJoin"));
    }
}

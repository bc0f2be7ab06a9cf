package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.starling.engine.PreparedQuery;
import dev.starling.engine.Starling;
import dev.starling.engine.data.ParameterBinder;
import dev.starling.storage.gen.TpchGenerator;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A query with parameter markers is optimized once: values bound to it go into that plan without
 * Calcite, and answer as the same query with the values written in as typed literals does (as
 * binding worked before), for every type, NULL,
 * markers in a scan's filter, a join's condition, a projection and HAVING; a value that is
 * not plainly of its marker's type is written into the text instead; a change to a table plans the
 * query again.
 */
class BoundParametersTest {
    private static Starling db;

    @BeforeAll
    static void open() {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.01, "");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /**
     * {@code sql} with {@code values} bound, against the same query with them written in as literals
     * of their markers' types ({@code CAST('1.5' AS DECIMAL(15,2))}), planned whole.
     */
    private static void sameAnswer(String sql, List<Object> values) {
        PreparedQuery q = db.prepare(sql);
        assertNotNull(q.template(), "optimized with its markers: " + sql);
        long optimized = db.optimizations();
        PreparedQuery bound = db.bind(q, values);
        assertEquals(optimized, db.optimizations(), "bound into its template, not planned with its values: " + values);
        String written = ParameterBinder.bind(sql, q.parameters(), values);
        assertEquals(db.query(written).rows(), db.query(bound).rows(), sql + " with " + values);
    }

    @Test
    void boundValuesAnswerAsValuesWrittenIn() {
        sameAnswer("SELECT l_returnflag, count(*), sum(l_extendedprice * (1 - l_discount)) FROM lineitem "
                        + "WHERE l_shipdate <= ? AND l_discount BETWEEN ? AND ? AND l_quantity < ? GROUP BY l_returnflag "
                        + "ORDER BY l_returnflag",
                List.of(LocalDate.of(1998, 9, 2), new BigDecimal("0.05"), new BigDecimal("0.07"), 24));
        sameAnswer("SELECT n_name, count(*) FROM customer JOIN nation ON c_nationkey = n_nationkey AND n_name <> ? "
                        + "WHERE c_acctbal > ? GROUP BY n_name HAVING count(*) > ? ORDER BY n_name",
                List.of("CHINA", 1000.5, 5L));
        sameAnswer("SELECT o_orderkey, o_totalprice * ? AS scaled FROM orders WHERE o_orderstatus = ? "
                        + "ORDER BY o_totalprice DESC, o_orderkey LIMIT 7",
                List.of(new BigDecimal("1.5"), "F"));
        sameAnswer("SELECT count(*) FROM part WHERE p_size IN (?, ?, ?) OR p_brand = ?",
                Arrays.asList(3, 7, null, "Brand#23"));
    }

    @Test
    void bindingPlansNothingAndATableChangePlansAgain() {
        String sql = "SELECT count(*) FROM region WHERE r_regionkey >= ?";
        PreparedQuery q = db.prepare(sql);
        long optimized = db.optimizations();
        for (int k = 0; k < 5; k++) {
            assertEquals(List.of(List.of((long) (5 - k))), db.query(db.bind(q, List.of(k))).rows());
        }
        assertEquals(optimized, db.optimizations(), "binding optimized nothing");
        db.query("CREATE TABLE bound_probe (k INT)");
        try {
            assertEquals(List.of(List.of(5L)), db.query(db.bind(q, List.of(0))).rows());
            assertEquals(optimized + 1, db.optimizations(), "a table changed: optimized again, once");
        } finally {
            db.query("DROP TABLE bound_probe");
        }
    }

    @Test
    void threadsBindingOneTemplateAtOnceEachGetTheirOwnValues() throws Exception {
        PreparedQuery q = db.prepare("SELECT count(*) FROM orders WHERE o_orderkey < ?");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<Boolean>> checks = new java.util.ArrayList<>();
            for (int t = 0; t < 64; t++) {
                long bound = 1 + 937L * t;
                checks.add(pool.submit(() -> db.query(db.bind(q, List.of(bound))).rows().equals(
                        db.query("SELECT count(*) FROM orders WHERE o_orderkey < " + bound).rows())));
            }
            for (var check : checks) {
                assertEquals(true, check.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aValueNotPlainlyOfItsTypeIsWrittenIntoTheText() {
        PreparedQuery q = db.prepare("SELECT count(*) FROM lineitem WHERE l_quantity < ?");
        // 24.004 has more places than DECIMAL(15,2): written in, the CAST rounds it as it would in the text
        assertEquals(db.query("SELECT count(*) FROM lineitem WHERE l_quantity < CAST('24.004' AS DECIMAL(15,2))").rows(),
                db.query(db.bind(q, List.of(new BigDecimal("24.004")))).rows());
        PreparedQuery dated = db.prepare("SELECT count(*) FROM lineitem WHERE l_shipdate < ?");
        assertEquals(db.query("SELECT count(*) FROM lineitem").rows(),
                db.query(db.bind(dated, List.of(LocalDate.of(12000, 1, 1)))).rows(), "a year past 9999, written in");
    }
}

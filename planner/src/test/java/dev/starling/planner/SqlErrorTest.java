package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.planner.sql.StarlingSqlException;
import dev.starling.storage.Catalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Errors name what is wrong and where; unsupported SQL names the construct. */
class SqlErrorTest {
    private static Catalog catalog;

    @BeforeAll
    static void load() {
        catalog = TestCatalogs.tpch();
    }

    @Test
    void unknownColumnCarriesItsPosition() {
        StarlingSqlException e = fail("select n_name,\n  foo from nation");
        assertEquals(2, e.line());
        assertEquals(3, e.column());
        assertEquals("line 2, column 3: Column 'foo' not found in any table", e.getMessage());
    }

    @Test
    void unknownTableCarriesItsPosition() {
        StarlingSqlException e = fail("select * from nope");
        assertEquals(1, e.line());
        assertEquals(15, e.column());
        assertTrue(e.getMessage().contains("'nope' not found"), e.getMessage());
    }

    @Test
    void syntaxErrorCarriesItsPosition() {
        StarlingSqlException e = fail("select n_name fro nation");
        assertEquals(1, e.line());
        assertEquals(19, e.column());
        assertTrue(e.getMessage().startsWith("line 1, column 19: "), e.getMessage());
    }

    @Test
    void keywordsAnalystsUseAsNamesAreNames() {
        // TPC-H Q11's alias, as the specification writes it; VALUE is reserved in standard SQL
        new SqlPlanner(catalog).plan("SELECT n_nationkey, sum(n_regionkey) AS value FROM nation GROUP BY n_nationkey "
                + "HAVING sum(n_regionkey) > 1 ORDER BY value DESC");
    }

    @Test
    void namesAreCaseInsensitive() {
        new SqlPlanner(catalog).plan("SELECT N_NAME FROM Nation WHERE n_NationKey = 1");
    }

    @Test
    void unsupportedConstructsNameThemselves() {
        assertUnsupported("FULL OUTER JOIN",
                "select n_name, r_name from nation full outer join region on n_regionkey = r_regionkey");
        assertUnsupported("window function", "select n_name, row_number() over (order by n_name) from nation");
        assertUnsupported("INTERSECT", "select n_nationkey from nation intersect select r_regionkey from region");
        assertUnsupported("non-equi", "select count(*) from lineitem a, orders b where a.l_shipdate < b.o_orderdate");
        assertUnsupported("statement", "insert into region values (9, 'X', 'Y')");
    }

    private static void assertUnsupported(String construct, String sql) {
        StarlingSqlException e = fail(sql);
        assertTrue(e.getMessage().contains("unsupported") && e.getMessage().contains(construct), e.getMessage());
    }

    private static StarlingSqlException fail(String sql) {
        return assertThrows(StarlingSqlException.class, () -> new SqlPlanner(catalog).plan(sql));
    }
}

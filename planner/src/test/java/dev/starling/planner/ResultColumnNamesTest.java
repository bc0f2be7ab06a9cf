package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.exec.plan.Field;
import dev.starling.storage.Catalog;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Result columns the query leaves unnamed are named as users read them, never {@code EXPR$0}: a
 * call by its function, anything else by its text as written; a name taken by another column, or
 * written as a plain name in GROUP BY, HAVING or ORDER BY (where it would be read as the column),
 * gets a number; the columns of a subquery or WITH item a {@code *} shows are named too, the first
 * branch of a UNION names its result, and ORDER BY still finds the expressions it repeats.
 */
class ResultColumnNamesTest {
    private static Catalog catalog;

    @BeforeAll
    static void load() {
        catalog = TestCatalogs.tpch();
    }

    @Test
    void unnamedColumnsAreNamedByTheirFunctionOrTheirText() {
        assertEquals(List.of("count", "sum", "n_regionkey + 1", "upper", "sum_2", "CAST(n_nationkey AS BIGINT)",
                        "9223372036854775807", "n_name", "'x'", "max(n_nationkey) + 1"),
                names("SELECT count(*), sum(n_nationkey), n_regionkey + 1, upper(n_name), sum(n_regionkey),\n"
                        + "  CAST(n_nationkey AS BIGINT), 9223372036854775807, n_name, 'x', max(n_nationkey)\n   + 1 "
                        + "FROM nation GROUP BY n_regionkey, n_name, n_nationkey ORDER BY count(*) DESC, 3"));
    }

    @Test
    void namesGivenOrWrittenElsewhereAreNotReused() {
        assertEquals(List.of("sum", "sum_2"), names("SELECT n_regionkey AS sum, sum(n_nationkey) FROM nation "
                + "GROUP BY n_regionkey"));
        // ORDER BY max names the column max, which the result then does not call max
        assertEquals(List.of("max_2", "max"), names("SELECT max(n_nationkey), n_regionkey AS max FROM nation "
                + "GROUP BY n_regionkey ORDER BY max"));
    }

    @Test
    void theColumnsAStarShowsAreNamedToo() {
        assertEquals(List.of("count"), names("SELECT * FROM (SELECT count(*) FROM nation)"));
        assertEquals(List.of("count", "max"), names("WITH w AS (SELECT count(*), max(n_name) FROM nation) SELECT * FROM w"));
        assertEquals(List.of("count"), names("SELECT count(*) FROM nation UNION ALL SELECT sum(n_nationkey) FROM nation"));
        assertEquals(List.of("n_name"), names("SELECT n_name FROM nation WHERE n_regionkey IN "
                + "(SELECT max(r_regionkey) FROM region)"));
    }

    private static List<String> names(String sql) {
        return new SqlPlanner(catalog).plan(sql).plan().output().stream().map(Field::name).toList();
    }
}

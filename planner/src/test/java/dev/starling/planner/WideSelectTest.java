package dev.starling.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.exec.plan.Field;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A SELECT of 10,000 columns plans, every column in its place (the validator asked whether the
 * SELECT aggregates once per column, each answer reading every column: 50 s for this one), and so
 * does an aggregation of 2,000 aggregates, grouped, whose select list the validator reads as an
 * aggregating one.
 */
class WideSelectTest {

    @Test
    void tenThousandColumns() {
        List<Field> out = plan(IntStream.range(0, 10_000).mapToObj(i -> "n_nationkey + " + i + " AS c" + i)
                .collect(Collectors.joining(", ", "SELECT ", " FROM nation")));
        assertEquals(10_000, out.size());
        assertEquals("c0", out.get(0).name());
        assertEquals("c9999", out.get(9_999).name());
    }

    @Test
    void twoThousandAggregatesGrouped() {
        List<Field> out = plan(IntStream.range(0, 2_000).mapToObj(i -> "sum(n_nationkey + " + i + ") AS s" + i)
                .collect(Collectors.joining(", ", "SELECT n_regionkey, ", " FROM nation GROUP BY n_regionkey")));
        assertEquals(2_001, out.size());
        assertEquals("n_regionkey", out.get(0).name());
        assertEquals("s1999", out.get(2_000).name());
    }

    private static List<Field> plan(String sql) {
        return new SqlPlanner(TestCatalogs.tpch()).plan(sql).plan().output();
    }
}

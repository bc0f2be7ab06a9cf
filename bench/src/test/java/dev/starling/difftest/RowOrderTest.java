package dev.starling.difftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The outermost ORDER BY, LIMIT and OFFSET of a query, resolved against the result's columns. */
class RowOrderTest {

    @Test
    void orderByKeysResolveToOutputColumns() {
        List<String> columns = List.of("l_returnflag", "revenue", "EXPR$2");
        assertEquals(new RowOrder(true, List.of(1, 0), 10, false),
                RowOrder.of("select a as l_returnflag, sum(x) revenue, count(*) from t group by a "
                        + "order by revenue desc nulls first, T.L_RETURNFLAG limit 10", columns));
        assertEquals(new RowOrder(true, List.of(2), -1, true),
                RowOrder.of("with w as (select 1 from t) select * from w order by 3 offset 1", columns));
        assertEquals(new RowOrder(false, List.of(), 5, false), RowOrder.of("select * from t limit 5 offset 0", columns));
        assertEquals(RowOrder.UNORDERED, RowOrder.of("select * from t union all select * from u", columns));
    }

    @Test
    void keysThatAreNotOutputColumnsCannotBeChecked() {
        List<String> columns = List.of("a", "b");
        assertThrows(IllegalArgumentException.class, () -> RowOrder.of("select * from t order by x + 1", columns));
        assertThrows(IllegalArgumentException.class, () -> RowOrder.of("select * from t order by unselected", columns));
    }
}

package dev.starling.planner.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.engine.Starling;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.planner.SqlPlanner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Calcite's row expressions as Starling's plan gets them (RexTranslator, then ExprLowering's
 * explicit form): result types with their decimal scales, every implied conversion a cast, date
 * arithmetic as day and month additions, BETWEEN and COALESCE expanded, literals typed, a
 * constant with more fractional digits than the value it is compared with kept exact (its bound at
 * the value's scale, never the value rescaled or the constant rounded), and nullability carried.
 */
class RexTranslatorTest {
    private static Starling db;

    @BeforeAll
    static void schema() {
        db = Starling.inMemory();
        db.query("CREATE TABLE t (i INT, b BIGINT NOT NULL, d DECIMAL(12,2), x DOUBLE, s VARCHAR(20), dt DATE, "
                + "ok BOOLEAN)");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        d * 2                              | d * 2                                          | DECIMAL(18,2) | true
        d + 1.005                          | CAST(d AS DECIMAL(18,3)) + 1.005               | DECIMAL(14,3) | true
        x * d                              | x * CAST(d AS DOUBLE)                          | DOUBLE        | true
        i + 1                              | CAST(i + 1 AS INTEGER)                         | INTEGER       | true
        d > 1                              | d > 1.00                                       | BOOLEAN       | true
        d IN (1, 2.5, 2.555)               | d IN (1.00, 2.50)                              | BOOLEAN       | true
        d > 1.005                          | d > 1.00                                       | BOOLEAN       | true
        1.005 <= d                         | d >= 1.01                                      | BOOLEAN       | true
        b = 1.5                            | b <> b                                         | BOOLEAN       | false
        SUM(d) > 1500.005                  | $f0 > 1500.00                                  | BOOLEAN       | true
        b + 1                              | b + 1                                          | BIGINT        | false
        -d                                 | -d                                             | DECIMAL(12,2) | true
        CAST(d AS DECIMAL(5,1))            | CAST(d AS DECIMAL(5,1))                        | DECIMAL(5,1)  | true
        dt + INTERVAL '3' MONTH            | dt + INTERVAL '3' MONTH                        | DATE          | true
        dt - INTERVAL '7' DAY              | dt + INTERVAL '-7' DAY                         | DATE          | true
        EXTRACT(YEAR FROM dt)              | EXTRACT(YEAR FROM dt)                          | BIGINT        | true
        DATE '1995-03-15'                  | DATE '1995-03-15'                              | DATE          | false
        i BETWEEN 1 AND 5                  | i >= 1 AND i <= 5                              | BOOLEAN       | true
        COALESCE(i, 0)                     | CASE WHEN i IS NOT NULL THEN i ELSE 0 END      | INTEGER       | false
        CASE WHEN i > 1 THEN 'a' ELSE s END| CASE WHEN i > 1 THEN 'a' ELSE s END            | VARCHAR       | true
        s LIKE 'a%'                        | s LIKE 'a%'                                    | BOOLEAN       | true
        i IN (1, 2, 3)                     | i IN (1, 2, 3)                                 | BOOLEAN       | true
        SUBSTRING(s FROM 2 FOR 3)          | SUBSTRING(s FROM 2 FOR 3)                      | VARCHAR       | true
        NOT ok                             | NOT ok                                         | BOOLEAN       | true
        """)
    void translatesToStarlingsExpressions(String sql, String text, String type, boolean nullable) {
        PlanNode plan = new SqlPlanner(db.catalog()).plan("SELECT " + sql + " FROM t").plan();
        while (!(plan instanceof ProjectNode) && !plan.inputs().isEmpty()) {
            plan = plan.inputs().get(0);
        }
        ProjectNode project = (ProjectNode) plan;
        Expr e = project.expressions().get(0);
        assertEquals(text, ExprText.of(e, Field.labels(project.input().output())));
        assertEquals(type, e.type().toString());
        assertEquals(nullable, e.nullable());
    }
}

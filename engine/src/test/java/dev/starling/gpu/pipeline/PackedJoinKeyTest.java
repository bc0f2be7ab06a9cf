package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprText;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.planner.PlanNodes;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A hash join on several columns packs its key into one value by the build columns' value ranges
 * (a foreign key's being its referenced key's), guards the probe side to those ranges, and refuses
 * keys it cannot pack.
 */
class PackedJoinKeyTest {
    private static Starling db;

    @BeforeAll
    static void data() {
        db = Starling.inMemory();
        TpchGenerator.generate(db.catalog(), 0.01, "");
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void tpchQ9PacksPartsuppsKeysByTheRangesOfTheKeysTheyReference() throws Unsupported {
        HashJoinNode join = twoKeyJoin(TpchQueries.query(9));
        List<String> probeNames = Field.labels(join.probe().output());
        PackedJoinKey key = PackedJoinKey.of(join, columns(join), db.catalog());
        // ps_suppkey references supplier (keys 1..100), ps_partkey part (1..2,000)
        assertEquals("(l_suppkey - 1) + ((l_partkey - 1) * 100)", ExprText.of(key.probe(), probeNames));
        assertEquals("l_suppkey >= 1 AND l_suppkey <= 100 AND l_partkey >= 1 AND l_partkey <= 2000",
                ExprText.of(key.guard(), probeNames));
        ProjectNode build = (ProjectNode) key.keyedBuild();
        assertEquals(join.build().output().size() + 1, build.expressions().size());
        assertEquals("(ps_suppkey - 1) + ((ps_partkey - 1) * 100)",
                ExprText.of(build.expressions().get(build.expressions().size() - 1), Field.labels(join.build().output())));
    }

    @Test
    void keysThatAreNotTableColumnsOrNotIntegersAreNotPacked() {
        db.query("CREATE TABLE pairs (a INT, b VARCHAR(3), c BIGINT)");
        Unsupported strings = assertThrows(Unsupported.class, () -> {
            HashJoinNode join = twoKeyJoin("SELECT COUNT(*) FROM lineitem JOIN pairs "
                    + "ON l_linenumber = pairs.a AND l_shipmode = pairs.b");
            PackedJoinKey.of(join, columns(join), db.catalog());
        });
        assertTrue(strings.getMessage().contains("not all integers"), strings.getMessage());
        Unsupported computed = assertThrows(Unsupported.class, () -> {
            HashJoinNode join = twoKeyJoin("SELECT COUNT(*) FROM lineitem JOIN (SELECT a, c * 2 AS d FROM pairs) p "
                    + "ON l_linenumber = p.a AND l_orderkey = p.d");
            PackedJoinKey.of(join, columns(join), db.catalog());
        });
        assertTrue(computed.getMessage().contains("not a table column of its build side"), computed.getMessage());
    }

    private static HashJoinNode twoKeyJoin(String sql) {
        return PlanNodes.all(new SqlPlanner(db.catalog()).plan(sql).plan(), HashJoinNode.class).stream()
                .filter(j -> j.probeKeys().length == 2).findFirst().orElseThrow();
    }

    /** The probe side's columns as references to themselves. */
    private static List<Expr> columns(HashJoinNode join) {
        List<Expr> out = new ArrayList<>();
        List<Field> fields = join.probe().output();
        for (int c = 0; c < fields.size(); c++) {
            out.add(new ColumnRef(c, fields.get(c).type(), fields.get(c).nullable()));
        }
        return out;
    }
}

package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.starling.engine.Starling;
import dev.starling.exec.BatchSink;
import dev.starling.exec.QueryContext;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.run.Executor;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import dev.starling.exec.vector.Vector;
import dev.starling.planner.PlanNodes;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Dense group ids (GroupLayout): keys from one dimension share a digit with one value per distinct
 * tuple among its rows; a fact column key has a digit over its min..max range plus NULL; a group id
 * is the mixed-radix number of the digits, and decoding an id gives back the group's keys.
 */
class GroupLayoutTest {
    @Test
    void digitsRankDimensionTuplesAndSpanFactColumnRanges() throws Exception {
        try (Starling db = Starling.inMemory()) {
            db.query("CREATE TABLE d (id INT PRIMARY KEY, name VARCHAR(10), cat INT)");
            db.query("CREATE TABLE f (dk INT REFERENCES d (id), k INT, v BIGINT)");
            // five dimension rows, three distinct (name, cat) tuples
            db.query("INSERT INTO d VALUES (1, 'a', 1), (2, 'b', 1), (3, 'a', 1), (4, 'a', 2), (5, 'b', 1)");
            db.query("INSERT INTO f VALUES (1, 10, 1), (2, 12, 2), (3, NULL, 3), (4, 11, 4), (5, 10, 5)");
            AggregateNode aggregate = PlanNodes.all(new SqlPlanner(db.catalog()).plan(
                    "SELECT d.name, d.cat, f.k, COUNT(*) FROM f JOIN d ON f.dk = d.id GROUP BY d.name, d.cat, f.k").plan(),
                    AggregateNode.class).get(0);
            StarPipeline pipeline = StarPipelineCompiler.compile(aggregate, db.catalog());
            Batch dimension = rowsOf(pipeline.dimensions().get(0).build());
            GroupLayout layout = new GroupLayout(pipeline, List.of(dimension), c -> null, db.catalog());

            // 3 tuples times k's range 10..12 plus NULL
            assertEquals(3 * 4, layout.groups(), layout.toString());
            Map<String, Long> contributionOf = new HashMap<>();
            List<Long> contributions = new ArrayList<>();
            // the keys as the plan orders them: k from the fact table, name and cat from the dimension
            List<StarPipeline.GroupKey> keys = pipeline.keys();
            int kKey = 0;
            while (keys.get(kKey).dimension() >= 0) {
                kKey++;
            }
            int nameKey = -1;
            int catKey = -1;
            for (int k = 0; k < keys.size(); k++) {
                if (keys.get(k).dimension() >= 0) {
                    if (keys.get(k).expr().type().kind() == DataType.Kind.VARCHAR) {
                        nameKey = k;
                    } else {
                        catKey = k;
                    }
                }
            }
            Vector names = ExprCompiler.compile(keys.get(nameKey).expr()).eval(dimension);
            Vector cats = ExprCompiler.compile(keys.get(catKey).expr()).eval(dimension);
            for (int r = 0; r < dimension.rows(); r++) {
                String tuple = names.getString(r) + "/" + cats.getLong(r);
                long contribution = layout.contribution(0, r);
                Long before = contributionOf.putIfAbsent(tuple, contribution);
                if (before != null) {
                    assertEquals(before, contribution, "rows of one tuple share a digit: " + tuple);
                }
                contributions.add(contribution);
            }
            assertEquals(3, contributionOf.size());
            assertEquals(3, contributionOf.values().stream().distinct().count(), "tuples have digits of their own");

            // ids decode to their keys: every dimension tuple with k = 10, 12 and NULL
            long[] constants = layout.constants();
            int at = pipeline.keys().get(kKey).constant();
            long min = constants[at];
            long nullDigit = constants[at + 1];
            long multiplier = constants[at + 2];
            assertEquals(10, min);
            assertEquals(3, nullDigit);
            for (Map.Entry<String, Long> e : contributionOf.entrySet()) {
                long[] ids = {e.getValue() + (10 - min) * multiplier, e.getValue() + (12 - min) * multiplier,
                    e.getValue() + nullDigit * multiplier};
                Vector[] decoded = layout.keyColumns(ids);
                for (int i = 0; i < ids.length; i++) {
                    assertEquals(e.getKey(), decoded[nameKey].getString(i) + "/" + decoded[catKey].getLong(i));
                }
                assertEquals(10, decoded[kKey].getLong(0));
                assertEquals(12, decoded[kKey].getLong(1));
                assertNull(decoded[kKey].isNull(2) ? null : decoded[kKey].getLong(2), "the NULL digit decodes to NULL");
            }
            assertNotEquals(contributions.get(0), contributions.get(1));
        }
    }

    /** A dimension's build rows, run on the CPU as the GPU backend's builds are. */
    private static Batch rowsOf(PlanNode build) {
        List<Batch> batches = new ArrayList<>();
        try (Executor executor = new Executor(1)) {
            executor.run(build, new QueryContext(), new BatchSink() {
                @Override
                public void accept(Batch batch) {
                    batches.add(batch);
                }
            });
        }
        return BatchBuffer.concat(build.output(), batches);
    }
}

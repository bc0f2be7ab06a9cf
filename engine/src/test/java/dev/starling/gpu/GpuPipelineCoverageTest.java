package dev.starling.gpu;

import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.Settings;
import dev.starling.gpu.plan.StoredConflicts;
import dev.starling.gpu.plan.GpuPlanner;
import dev.starling.gpu.cuda.DeviceProfile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.gpu.pipeline.StarPipelineCompiler;
import dev.starling.gpu.pipeline.Unsupported;
import dev.starling.planner.PlanNodes;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Which pipelines the GPU backend can run, decided without a GPU: every SSB query's aggregation
 * compiles to a star pipeline program, and the TPC-H queries listed in docs/GPU.md do.
 */
class GpuPipelineCoverageTest {
    /** TPC-H queries whose main (largest) aggregation runs on the GPU: all of them (docs/GPU.md). */
    static final Set<Integer> TPCH_ON_GPU = java.util.stream.IntStream.rangeClosed(1, TpchQueries.COUNT).boxed()
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    @Test
    void everySsbAggregationCompiles() throws Unsupported {
        try (Starling db = Starling.inMemory()) {
            SsbGenerator.generate(db.catalog(), 0.01, "");
            SqlPlanner planner = new SqlPlanner(db.catalog());
            for (String q : SsbQueries.names()) {
                List<AggregateNode> aggs = aggregates(planner.plan(SsbQueries.query(q)).plan());
                assertEquals(1, aggs.size(), q);
                StarPipelineCompiler.compile(aggs.get(0), db.catalog());
            }
        }
    }

    @Test
    void tpchQueriesWithAGpuPipeline() {
        Set<Integer> compiled = new TreeSet<>();
        List<String> reasons = new ArrayList<>();
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            SqlPlanner planner = new SqlPlanner(db.catalog());
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                List<AggregateNode> aggs = aggregates(planner.plan(TpchQueries.query(q)).plan());
                // The first aggregation found top-down over the largest input is the query's main one.
                AggregateNode main = aggs.isEmpty() ? null : aggs.get(aggs.size() - 1);
                for (AggregateNode a : aggs) {
                    try {
                        StarPipelineCompiler.compile(a, db.catalog());
                        compiled.add(q);
                    } catch (Unsupported e) {
                        if (a == main) {
                            reasons.add("Q" + q + ": " + e.getMessage());
                        }
                    }
                }
            }
        }
        assertTrue(compiled.containsAll(TPCH_ON_GPU), "compiled " + compiled + "; " + reasons);
    }

    @Test
    void autoPlacementWeighsFactRowsAgainstDimensionRows() throws Unsupported {
        try (Starling ssb = Starling.inMemory(); Starling tpch = Starling.inMemory()) {
            SsbGenerator.generate(ssb.catalog(), 0.01, "");
            TpchGenerator.generate(tpch.catalog(), 0.2, "");
            AggregateNode small = aggregates(new SqlPlanner(ssb.catalog()).plan(SsbQueries.query("2.1")).plan()).get(0);
            GpuPlanner moving = GpuPlanner.forProfile(DeviceProfile.H100_80GB, tpch.catalog());
            GpuPlanner resident = new GpuPlanner(DeviceProfile.H100_80GB, DeviceProfile.H100_80GB.defaultBudget(), c -> true,
                    new StoredConflicts(DeviceProfile.H100_80GB.banks()), tpch.catalog());
            assertEquals("backend=cpu (60220 fact rows, too few to pay for a GPU round trip)",
                    moving.aggregate(small, GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT).describe());
            assertTrue(moving.aggregate(small, GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT.withBackend(BackendMode.GPU)).accelerated());
            assertEquals("backend=cpu (session backend is cpu)",
                    moving.aggregate(small, GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT.withBackend(BackendMode.CPU)).describe());
            SqlPlanner planner = new SqlPlanner(tpch.catalog());
            // Q6: lineitem alone, 1.2M rows, on the GPU; the copy is counted until the columns are resident.
            AggregateNode q6 = aggregates(planner.plan(TpchQueries.query(6)).plan()).get(0);
            String toMove = moving.aggregate(q6, GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT).describe();
            assertTrue(toMove.startsWith("backend=gpu (1199969 fact rows, 34 MB of fact columns, 34 MB not yet resident"), toMove);
            String moved = resident.aggregate(q6, GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT).describe();
            assertTrue(moved.contains(", 0 MB not yet resident"), moved);
            // Q12: lineitem probing all 300,000 orders, which the GPU builds itself from their columns.
            List<AggregateNode> q12 = aggregates(planner.plan(TpchQueries.query(12)).plan());
            String orders = moving.aggregate(q12.get(q12.size() - 1), GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT).describe();
            assertTrue(orders.startsWith("backend=gpu") && orders.contains("dimensions built on the GPU: orders"), orders);
            // Q18: lineitem probing its subquery's orders by a hash join, whose table the GPU builds from orders' columns.
            String subquery = moving.aggregate(aggregates(planner.plan(TpchQueries.query(18)).plan()).get(0), GroupsWanted.ALL, PlanEstimates.NONE,
                    Settings.DEFAULT).describe();
            assertTrue(subquery.startsWith("backend=gpu") && subquery.contains("dimensions built on the GPU: orders"), subquery);
            // lineitem probing an aggregation of itself by two keys: groups the CPU would build and the link carry,
            // as many as lineitem's rows
            String byGroups = moving.aggregate(aggregates(planner.plan("SELECT COUNT(*), SUM(q) FROM lineitem JOIN "
                    + "(SELECT l_orderkey AS k, l_suppkey AS n, MAX(l_quantity) AS q FROM lineitem GROUP BY l_orderkey, "
                    + "l_suppkey) g ON l_orderkey = k AND l_suppkey = n").plan()).get(0), GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT).describe();
            assertTrue(byGroups.contains("costs more than the GPU saves"), byGroups);
            // Q18: lineitem grouped by l_orderkey, 300,000 groups for 1.2M rows, each read back and finished on the CPU.
            List<String> q18 = aggregates(planner.plan(TpchQueries.query(18)).plan()).stream()
                    .map(a -> resident.aggregate(a, GroupsWanted.ALL, PlanEstimates.NONE, Settings.DEFAULT).describe()).toList();
            assertTrue(q18.stream().anyMatch(p -> p.startsWith("backend=cpu (300000 groups from fact columns for 1199969 fact rows")), q18.toString());
        }
    }

    @Test
    void autoPlacementTakesTheOptimizersEstimatesOfGroupsAndResultRows() {
        try (Starling tpch = Starling.inMemory()) {
            TpchGenerator.generate(tpch.catalog(), 0.2, "");
            GpuPlanner resident = new GpuPlanner(DeviceProfile.H100_80GB, DeviceProfile.H100_80GB.defaultBudget(), c -> true,
                    new StoredConflicts(DeviceProfile.H100_80GB.banks()), tpch.catalog());
            SqlPlanner planner = new SqlPlanner(tpch.catalog());
            // Q20: lineitem of one year, of parts named 'forest%', grouped by part and supplier: their
            // ranges multiply to 8e7 groups, the optimizer expects far fewer
            SqlPlanner.Plan q20 = planner.plan(TpchQueries.query(20));
            AggregateNode byPartAndSupplier = aggregates(q20.plan()).get(0);
            String unestimated = resident.aggregate(byPartAndSupplier, GroupsWanted.ALL, PlanEstimates.NONE,
                    Settings.DEFAULT).describe();
            assertTrue(unestimated.startsWith("backend=cpu (80000000 groups from fact columns"), unestimated);
            String estimated = resident.aggregate(byPartAndSupplier, GroupsWanted.ALL, q20.estimates(),
                    Settings.DEFAULT).describe();
            assertTrue(estimated.startsWith("backend=gpu (1199969 fact rows"), estimated);
            // result rows of lineitem: a few go to the GPU under auto, all of them stay with the CPU, which streams them
            SqlPlanner.Plan few = planner.plan("SELECT l_orderkey, l_extendedprice FROM lineitem WHERE l_quantity < 2 "
                    + "AND l_shipdate = DATE '1995-01-01'");
            assertTrue(resident.rows(few.plan(), null, few.estimates(), Settings.DEFAULT).accelerated());
            SqlPlanner.Plan all = planner.plan("SELECT l_orderkey, l_extendedprice FROM lineitem");
            assertEquals("backend=cpu (~1199969 result rows: the GPU hands rows back whole, the CPU streams them)",
                    resident.rows(all.plan(), null, all.estimates(), Settings.DEFAULT).describe());
            assertTrue(resident.rows(all.plan(), null, all.estimates(), Settings.DEFAULT.withBackend(BackendMode.GPU)).accelerated());
            // ... unless a sort with a limit keeps only the first of them, which the GPU picks and sorts
            SortNode top10 = new SortNode(all.plan(), List.of(new SortNode.SortKey(1, true, true)), 0, 10);
            String first = resident.rows(all.plan(), top10, all.estimates(), Settings.DEFAULT).describe();
            assertTrue(first.startsWith("backend=gpu") && first.endsWith("of its rows, only the first 10 by l_extendedprice "
                    + "DESC (and ties) come back; its rows sorted on the GPU, the first 10 coming back)"), first);
            // ... or a sort the GPU applies, which would hold them all on the CPU too
            SortNode sorted = new SortNode(all.plan(), List.of(new SortNode.SortKey(1, false, false)), 0, -1);
            String whole = resident.rows(all.plan(), sorted, all.estimates(), Settings.DEFAULT).describe();
            assertTrue(whole.startsWith("backend=gpu") && whole.endsWith("; its rows sorted on the GPU)"), whole);
        }
    }

    @Test
    void q19sPartDimensionWithItsInListsIsBuiltOnTheGpu() throws Unsupported {
        try (Starling tpch = Starling.inMemory()) {
            TpchGenerator.generate(tpch.catalog(), 0.01, "");
            AggregateNode q19 = aggregates(new SqlPlanner(tpch.catalog()).plan(TpchQueries.query(19)).plan()).get(0);
            StarPipeline pipeline = StarPipelineCompiler.compile(q19, tpch.catalog());
            // its brand and container IN lists are chains of equalities: some 70 registers
            assertTrue(pipeline.dimensions().stream().allMatch(StarPipeline.Dimension::builtOnGpu),
                    pipeline.dimensions().toString());
        }
    }

    static List<AggregateNode> aggregates(PlanNode plan) {
        return PlanNodes.all(plan, AggregateNode.class);
    }
}

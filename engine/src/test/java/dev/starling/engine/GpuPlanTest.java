package dev.starling.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.accel.AcceleratorMissingException;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.run.PipelineGraph.Pipeline;
import dev.starling.exec.run.PipelineGraph.Role;
import dev.starling.gpu.cuda.HostMemoryPools;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Plans for an H100 on a machine that need not have one (the GPU is switched off, the profile
 * named): which pipelines land on the GPU when the session forces it, what auto does without the
 * device, and that running a GPU plan without the GPU fails with a clear error.
 */
class GpuPlanTest {
    private static final GpuOptions H100_PROFILE_ONLY = new GpuOptions(false, 0, 0, HostMemoryPools.DEFAULT, "h100-80gb");
    private static final Settings GPU = Settings.DEFAULT.withBackend(BackendMode.GPU);
    /** TPC-H queries with an aggregation the GPU runs when forced (docs/GPU.md lists them). */
    /** How many variants of each query, with other substitution parameters, the plan checks take. */
    private static final int VARIANTS = 3;
    private static final Set<Integer> TPCH_ON_GPU = Set.of(1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 19);

    private static Starling tpch;
    private static Starling ssb;

    @BeforeAll
    static void generate() {
        tpch = Starling.inMemory(H100_PROFILE_ONLY);
        TpchGenerator.generate(tpch.catalog(), 0.01, "");
        ssb = Starling.inMemory(H100_PROFILE_ONLY);
        SsbGenerator.generate(ssb.catalog(), 0.01, "");
    }

    @AfterAll
    static void close() {
        tpch.close();
        ssb.close();
    }

    static List<String> ssbQueries() {
        return SsbQueries.names();
    }

    @ParameterizedTest(name = "SSB Q{0}")
    @MethodSource("ssbQueries")
    void everySsbAggregationRunsOnTheGpuWhenForced(String q) {
        PipelineGraph graph = ssb.prepare(SsbQueries.query(q), GPU).graph();
        List<Pipeline> aggregations = graph.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT).toList();
        assertEquals(1, aggregations.size(), describe(graph));
        assertEquals("gpu", aggregations.get(0).placement().device(), describe(graph));
        assertTrue(aggregations.get(0).placement().reason().startsWith("session backend is gpu"), describe(graph));
        assertBuildsOnTheCpuAndEveryCpuPipelineSaysWhy(graph);
        String explained = ssb.explain(SsbQueries.query(q));
        assertReadable(explained);
        assertTrue(explained.contains("backend=cpu (no GPU here; profile h100-80gb is planned for under SET backend"),
                "auto never plans for a GPU that is not here: " + explained);
    }

    @Test
    void tpchAggregationsOnTheGpuWhenForcedAreTheDocumentedOnes() {
        Set<Integer> withGpuAggregation = new TreeSet<>();
        for (int q = 1; q <= TpchQueries.COUNT; q++) {
            PipelineGraph graph = tpch.prepare(TpchQueries.query(q), GPU).graph();
            assertBuildsOnTheCpuAndEveryCpuPipelineSaysWhy(graph);
            if (graph.pipelines().stream().anyMatch(p -> p.role() == Role.AGGREGATE_INPUT && p.placement().accelerated())) {
                withGpuAggregation.add(q);
            }
        }
        assertTrue(withGpuAggregation.containsAll(TPCH_ON_GPU), withGpuAggregation.toString());
    }

    /**
     * TPC-H Q18 groups by orders and customers, dimensions scanned whole, whose keys' distinct
     * values alone (15,000 orders times 1,500 customers at SF 0.01) pass the GPU's dense group
     * ids: the planner puts that aggregation on the GPU with its groups hashed, in a table with
     * room for twice as many groups as lineitem has rows (60,175 at SF 0.01).
     */
    @Test
    void anAggregationWhoseDimensionKeysPassTheDenseGroupIdsHashesItsGroups() {
        PipelineGraph graph = tpch.prepare(TpchQueries.query(18), GPU).graph();
        List<Pipeline> byCustomer = graph.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT
                && p.top().output().stream().anyMatch(f -> f.name().equals("c_name"))).toList();
        assertEquals(1, byCustomer.size(), describe(graph));
        assertTrue(byCustomer.get(0).placement().accelerated(), describe(graph));
        assertTrue(byCustomer.get(0).placement().reason().contains("groups hashed by id into a device table of 131072 "
                + "slots (at least 22500000 dense ids, past 16777216)"), describe(graph));
    }

    @Test
    void aDimensionTheCpuBuildsForAGpuPipelineTakesItsRowsFromTheGpu() {
        PipelineGraph q20 = tpch.prepare(TpchQueries.query(20), GPU).graph();
        // the GPU pipeline that streams Q20's Canadian suppliers looks them up among the ps_suppkey
        // values of the partsupp rows of its parts past the lineitem sums: those values come from
        // the GPU, and the CPU builds the dimension's hash table from them
        Pipeline marking = q20.pipelines().stream().filter(p -> p.role() == Role.MARKING_BUILD).findFirst().orElseThrow();
        assertTrue(q20.rowsOnDevice(marking), describe(q20));
        Pipeline probe = q20.pipelines().stream().filter(p -> p.role() == Role.MARKED_PROBE).findFirst().orElseThrow();
        assertTrue(probe.placement().accelerated() && !q20.rowsOnDevice(probe)
                && probe.placement().reason().startsWith("streamed on the GPU by the pipeline it feeds"), describe(q20));
        assertTrue(q20.pipelines().stream().noneMatch(p -> p.role() == Role.JOIN_BUILD
                && p.placement().reason().startsWith("join tables are built on the CPU")), describe(q20));
        assertTrue(q20.pipelines().stream().noneMatch(p -> p.role() == Role.AGGREGATE_INPUT && q20.rowsOnDevice(p)),
                describe(q20));
    }

    /**
     * TPC-H Q13 counts each customer's orders, LEFT joins every customer to the counts and counts
     * the customers per count: the pipeline that joins the counts folds them on the GPU at the
     * customers' codes, so it reads nothing the CPU computes, and the orders' aggregation below it
     * is its own.
     */
    @Test
    void groupsJoinedByTheirForeignKeyAreFoldedOnTheGpuByThePipelineThatJoinsThem() {
        PipelineGraph q13 = tpch.prepare(TpchQueries.query(13), GPU).graph();
        Pipeline joining = q13.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT
                && p.placement().reason().contains("dimensions built on the GPU: orders")).findFirst()
                .orElseThrow(() -> new AssertionError(describe(q13)));
        assertEquals(List.of(), joining.placement().plan().inputs(), describe(q13));
        List<Pipeline> builds = q13.deviceBuilds(joining.placement().plan());
        assertEquals(List.of(Role.JOIN_BUILD, Role.AGGREGATE_INPUT), builds.stream().map(Pipeline::role).toList(),
                describe(q13));
        assertTrue(builds.stream().allMatch(p -> p.placement().reason().equals("built on the GPU by the pipeline it feeds, "
                + "folding its groups at the codes their key holds")), describe(q13));
    }

    @Test
    void denseDimensionsScannedFromOneTableAreBuiltOnTheGpuUnlessTheirKeysMustBeRanked() {
        PipelineGraph q3 = tpch.prepare(TpchQueries.query(3), GPU).graph();
        Pipeline main = q3.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT).findFirst().orElseThrow();
        assertTrue(main.placement().reason().contains("dimensions built on the GPU: orders, customer"), describe(q3));
        assertEquals(List.of(), main.placement().plan().inputs(), "the CPU builds nothing for it: " + describe(q3));
        assertEquals(2, q3.pipelines().stream().filter(p -> p.role() == Role.JOIN_BUILD && p.placement().accelerated()
                && p.placement().plan() == main.placement().plan()).count(), describe(q3));
        // Q10 groups by n_name, which is not nation's key, but whose codes are no more than nation's
        // rows: the GPU builds nation too, each row's digit its name's code
        PipelineGraph q10 = tpch.prepare(TpchQueries.query(10), GPU).graph();
        Pipeline byCustomer = q10.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT).findFirst().orElseThrow();
        assertTrue(byCustomer.placement().reason().contains("dimensions built on the GPU: orders, customer, nation;"),
                describe(q10));
        assertEquals(List.of(), byCustomer.placement().plan().inputs(), describe(q10));
        // Q7 filters nation by a list of names, twice, and groups by both names
        PipelineGraph q7 = tpch.prepare(TpchQueries.query(7), GPU).graph();
        assertTrue(q7.pipelines().stream().noneMatch(p -> p.role() == Role.JOIN_BUILD && !p.placement().accelerated()),
                describe(q7));
        // Q9 groups by o_year, the year of o_orderdate, within the years its statistics span: the GPU
        // builds orders, computing each row's digit from that year
        PipelineGraph q9 = tpch.prepare(TpchQueries.query(9), GPU).graph();
        Pipeline byYear = q9.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT).findFirst().orElseThrow();
        assertTrue(byYear.placement().reason().matches(".*dimensions built on the GPU: [a-z, ]*orders.*"), describe(q9));
    }

    /**
     * A sort with a limit over a selection's rows: the GPU picks the first rows by the sort's first
     * key, unless that key's order is not its values' (a string's codes) or it may be NULL; with a
     * limit or without, the GPU sorts the rows it sends back, the pipeline the sort tops shown where
     * the sort ran.
     */
    @Test
    void aSortOverRowsRunsOnTheGpuWhichPicksTheFirstRowsOfALimit() {
        PipelineGraph byPrice = tpch.prepare("SELECT l_orderkey, l_extendedprice FROM lineitem "
                + "ORDER BY l_extendedprice DESC, l_orderkey LIMIT 10", GPU).graph();
        Pipeline rows = byPrice.pipelines().stream().filter(p -> p.role() == Role.SORT_INPUT).findFirst().orElseThrow();
        assertTrue(rows.placement().accelerated()
                && rows.placement().reason().endsWith("of its rows, only the first 10 by l_extendedprice DESC (and ties) "
                + "come back; its rows sorted on the GPU, the first 10 coming back"), describe(byPrice));
        for (String sql : List.of("SELECT l_orderkey, l_comment FROM lineitem ORDER BY l_comment LIMIT 10",
                "SELECT l_orderkey, l_extendedprice FROM lineitem ORDER BY l_extendedprice DESC")) {
            PipelineGraph graph = tpch.prepare(sql, GPU).graph();
            assertTrue(graph.pipelines().stream().noneMatch(p -> p.placement().reason().contains("of its rows")),
                    describe(graph));
            assertTrue(graph.sortedOnDevice(graph.root()), describe(graph));
            assertEquals("sorted on the GPU by pipeline 1, which hands its rows on in order",
                    graph.pipelines().get(0).placement().reason(), describe(graph));
        }
    }

    /**
     * Orders grouped from lineitem and kept past 300 units (Q18's subquery, as a query of its own):
     * the GPU applies that HAVING to its groups, unless it shares the rows with the CPU workers
     * (whose groups it meets only on the host).
     */
    @Test
    void aHavingOverAGpuAggregationIsAppliedToItsGroupsOnTheGpu() {
        String sql = "SELECT l_orderkey, SUM(l_quantity) FROM lineitem GROUP BY l_orderkey HAVING SUM(l_quantity) > 300";
        PipelineGraph graph = tpch.prepare(sql, GPU).graph();
        List<Pipeline> having = graph.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT
                && p.placement().reason().contains("HAVING sum > 300.00 applied to the groups on the GPU")).toList();
        assertEquals(1, having.size(), describe(graph));
        PipelineGraph shared = tpch.prepare(sql, Settings.DEFAULT.withBackend(BackendMode.BOTH)).graph();
        assertTrue(shared.pipelines().stream().noneMatch(p -> p.placement().reason().contains("HAVING")), describe(shared));
    }

    /**
     * Q16 counts the distinct suppliers per part brand, type and size: the GPU runs that count in
     * its pipeline, and alone even under backend both, since one set must tell its values apart.
     */
    @Test
    void aCountDistinctRunsInTheGpuPipelineAndIsNotShared() {
        for (BackendMode mode : List.of(BackendMode.GPU, BackendMode.BOTH)) {
            PipelineGraph graph = tpch.prepare(TpchQueries.query(16), Settings.DEFAULT.withBackend(mode)).graph();
            Pipeline counted = graph.pipelines().stream().filter(p -> p.role() == Role.AGGREGATE_INPUT).findFirst()
                    .orElseThrow();
            assertEquals("gpu", counted.placement().device(), describe(graph));
            assertTrue(counted.placement().reason().contains("a DISTINCT aggregate's values are told apart in one set"),
                    describe(graph));
        }
    }

    /**
     * Q3 and Q10 keep the first 10 and 20 of about a million groups by revenue: only those are
     * decoded from the GPU's, unless the CPU workers share the groups, which are merged on the host.
     */
    @Test
    void aSortWithALimitOverAGpuAggregationDecodesOnlyItsFirstGroups() {
        for (int q : new int[] {3, 10}) {
            String first = "of its groups, only the first " + (q == 3 ? 10 : 20) + " by revenue DESC (and ties) decoded";
            PipelineGraph graph = tpch.prepare(TpchQueries.query(q), GPU).graph();
            assertTrue(graph.pipelines().stream().anyMatch(p -> p.role() == Role.AGGREGATE_INPUT
                    && p.placement().reason().contains(first)), describe(graph));
            PipelineGraph shared = tpch.prepare(TpchQueries.query(q), Settings.DEFAULT.withBackend(BackendMode.BOTH)).graph();
            assertTrue(shared.pipelines().stream().noneMatch(p -> p.placement().reason().contains("only the first")),
                    describe(shared));
        }
    }

    static IntStream tpchQueries() {
        return IntStream.rangeClosed(1, TpchQueries.COUNT);
    }

    /**
     * Q1's GPU pipeline aggregates; the pipeline above only hands its groups on to a sort the GPU
     * orders, and the result's pipeline hands on the sorted rows: EXPLAIN shows them where that
     * work ran, as is Q22's, which hands its average's one row to the GPU pipeline comparing with
     * it. Q8's projection computes over the groups on the GPU, and is shown there, as is Q15's
     * largest revenue of the suppliers' groups, which the GPU finds.
     */
    @Test
    void pipelinesAboveAGpuAggregationSayWhatTheyRead() {
        Settings before = tpch.settings();
        tpch.setSettings(GPU);
        try {
            String q1 = tpch.explain(TpchQueries.query(1));
            assertTrue(q1.contains("[pipeline 1, backend=gpu (the groups of pipeline 2, handed on)]"), q1);
            assertTrue(q1.contains("[pipeline 0, backend=gpu (sorted on the GPU: the keys of the rows it reads copied "
                    + "there, their order back)]"), q1);
            assertFalse(q1.contains("backend=cpu"), q1);
            String q8 = tpch.explain(TpchQueries.query(8));
            assertTrue(q8.contains("[pipeline 1, backend=gpu (the groups of pipeline 2, handed on; its rows "
                    + "computed from them on the GPU)]"), q8);
            assertTrue(q8.contains("[CAST($f1 AS DOUBLE) / CAST($f2 AS DOUBLE)] computed from the groups on the GPU"), q8);
            assertFalse(q8.contains("backend=cpu"), q8);
            String q22 = tpch.explain(TpchQueries.query(22));
            assertTrue(q22.contains("[pipeline 5, backend=gpu (the groups of pipeline 6, handed on)]"), q22);
            assertFalse(q22.contains("backend=cpu"), q22);
            String q15 = tpch.explain(TpchQueries.query(15));
            assertTrue(q15.contains("backend=gpu (the groups of pipeline 6, handed on to the extreme the GPU finds of them)"), q15);
            assertFalse(q15.contains("backend=cpu"), q15);
        } finally {
            tpch.setSettings(before);
        }
    }

    /** Forced, the GPU computes the plan over Q11's and Q14's groups; under auto, see AutoPlacementTest. */
    @Test
    void thePlanOverTheGroupsIsTheGpusWhenItIsForced() {
        Settings before = tpch.settings();
        try {
            tpch.setSettings(GPU);
            for (int q : List.of(11, 14)) {
                String forced = tpch.explain(TpchQueries.query(q));
                assertTrue(forced.contains("computed from the groups on the GPU"), forced);
            }
        } finally {
            tpch.setSettings(before);
        }
    }

    /**
     * With the GPU forced, no TPC-H query's EXPLAIN shows a pipeline on the CPU: Q2's and Q22's
     * subqueries hand their groups (Q22's one row) to the GPU pipeline that reads them; Q8, Q14 and
     * Q17 compute their last projection from the groups there, Q11 its comparison of the groups
     * with a fraction of their total, and Q15 its best revenue; Q16's parts, whose brands, types and
     * sizes span more combinations than there are parts at this scale, are numbered by those values
     * there; Q2's top-N orders the rows of a GPU pipeline there; Q20's semi join, which the CPU would
     * run by marking its few suppliers, streams them on the GPU through a hash table of the keys of
     * a GPU pipeline's rows. The same holds for three variants of each with other substitution
     * parameters.
     */
    @Test
    void noTpchQueryHasACpuPipelineWhenTheGpuIsForced() {
        Map<String, String> queries = new LinkedHashMap<>();
        for (int q = 1; q <= TpchQueries.COUNT; q++) {
            queries.put("Q" + q, TpchQueries.query(q));
            for (long seed = 1; seed <= VARIANTS; seed++) {
                queries.put("Q" + q + " variant " + seed, TpchQueries.variant(q, 0.01, seed));
            }
        }
        assertEquals(List.of(), withACpuPipelineWhenTheGpuIsForced(tpch, queries));
    }

    /**
     * With the GPU forced, no SSB query's EXPLAIN shows a pipeline on the CPU, nor that of three
     * variants of each with other parameters: Q2.3's projection of the brand its filter names
     * beside the groups adds a constant and computes nothing.
     */
    @Test
    void noSsbQueryHasACpuPipelineWhenTheGpuIsForced() {
        Map<String, String> queries = new LinkedHashMap<>();
        for (String q : SsbQueries.names()) {
            queries.put("Q" + q, SsbQueries.query(q));
            for (long seed = 1; seed <= VARIANTS; seed++) {
                queries.put("Q" + q + " variant " + seed, SsbQueries.variant(q, seed));
            }
        }
        assertEquals(List.of(), withACpuPipelineWhenTheGpuIsForced(ssb, queries));
    }

    /** The names of {@code queries} (by name) whose EXPLAIN on {@code db} with the GPU forced shows a pipeline on the CPU. */
    private static List<String> withACpuPipelineWhenTheGpuIsForced(Starling db, Map<String, String> queries) {
        Settings before = db.settings();
        db.setSettings(GPU);
        try {
            return queries.entrySet().stream().filter(q -> db.explain(q.getValue()).contains("backend=cpu"))
                    .map(Map.Entry::getKey).toList();
        } finally {
            db.setSettings(before);
        }
    }

    @ParameterizedTest(name = "TPC-H Q{0}")
    @MethodSource("tpchQueries")
    void explainShowsTheGraphThatIsPlanned(int q) {
        String sql = TpchQueries.query(q);
        Settings before = tpch.settings();
        tpch.setSettings(GPU);
        try {
            PipelineGraph graph = tpch.prepare(sql).graph();
            String explained = tpch.explain(sql);
            for (Pipeline p : graph.pipelines()) {
                assertTrue(explained.contains("[pipeline " + p.id() + ", " + p.placement().describe() + "]"),
                        "pipeline " + p.id() + " " + p.placement().describe() + " in\n" + explained);
            }
            assertEquals(graph.pipelines().size(), explained.split("\\[pipeline ", -1).length - 1, explained);
            assertTrue(graph.pipelines().stream().noneMatch(p -> p.placement().reason().isEmpty()), describe(graph));
            assertReadable(explained);
            explained.lines().forEach(GpuPlanTest::assertEstimated);
        } finally {
            tpch.setSettings(before);
        }
    }

    @Test
    void aGpuPlanWithoutTheGpuFailsClearlyAndAutoRunsOnTheCpu() {
        String sql = SsbQueries.query("1.1");
        Settings before = ssb.settings();
        try {
            ssb.setSettings(GPU);
            AcceleratorMissingException e = assertThrows(AcceleratorMissingException.class, () -> ssb.query(sql));
            assertTrue(e.getMessage().contains("is planned for the GPU (h100-80gb), and this machine has no GPU backend"),
                    e.getMessage());
            ssb.setSettings(Settings.DEFAULT);
            Object auto = ssb.query(sql).rows();
            ssb.setSettings(Settings.DEFAULT.withBackend(BackendMode.CPU));
            assertEquals(ssb.query(sql).rows(), auto);
        } finally {
            ssb.setSettings(before);
        }
    }

    @Test
    void theSessionsSettingsPlaceAPreparedQueryAgain() {
        String sql = SsbQueries.query("2.1");
        PreparedQuery cpu = ssb.prepare(sql, Settings.DEFAULT.withBackend(BackendMode.CPU));
        assertTrue(cpu.graph().pipelines().stream().noneMatch(p -> p.placement().accelerated()));
        assertTrue(ssb.prepare(sql, GPU).graph().accelerated());
        assertThrows(AcceleratorMissingException.class, () -> ssb.execute(cpu, ssb.newContext(GPU), rows -> { }),
                "run under the forcing session, the query is placed for it");
    }

    /**
     * Build sides run on the CPU unless the GPU pipeline they feed builds them, or streams them
     * (their join's sides swapped, or the probe side the CPU would build a marking join's table of),
     * and say so, or their rows come from a GPU pipeline of rows, which the CPU builds the join's
     * table from, or they are a GPU aggregation's groups, handed on to the GPU pipeline that reads
     * them; a pipeline left on the CPU under a forced GPU says why.
     */
    private static void assertBuildsOnTheCpuAndEveryCpuPipelineSaysWhy(PipelineGraph graph) {
        for (Pipeline p : graph.pipelines()) {
            if (!p.role().offered()) {
                String reason = p.placement().reason();
                assertTrue(p.placement().device().equals("cpu") || graph.rowsOnDevice(p)
                        && reason.startsWith("its rows from the GPU, the join's table built from them on the CPU")
                        || switch (p.role()) {
                    case JOIN_BUILD -> reason.startsWith("built on the GPU by the pipeline it feeds")
                            || reason.startsWith("streamed on the GPU by the pipeline it feeds")
                            || graph.handsOnDeviceResult(p.top()) && reason.startsWith("the groups of pipeline ");
                    case MARKING_BUILD -> reason.startsWith("built on the GPU by the pipeline it feeds");
                    case MARKED_PROBE -> reason.startsWith("streamed on the GPU by the pipeline it feeds");
                    default -> false;
                }, describe(graph));
            } else if (!p.placement().accelerated()) {
                assertTrue(p.placement().reason().startsWith("the GPU cannot run "), describe(graph));
            }
        }
    }

    private static String describe(PipelineGraph graph) {
        StringBuilder out = new StringBuilder();
        graph.pipelines().forEach(p -> out.append(p.id()).append(' ').append(p.role()).append(' ')
                .append(p.placement().describe()).append('\n'));
        return out.toString();
    }

    /**
     * An EXPLAIN line shows the node's estimated rows; a join how it finds matches; a breaker the
     * memory of its state.
     */
    private static void assertEstimated(String line) {
        String node = line.strip();
        assertTrue(Pattern.compile("\\((rows|groups) ~\\d").matcher(line).find(), "no estimate: " + line);
        if (node.startsWith("HashJoin") || node.startsWith("DenseJoin")) {
            assertTrue(Pattern.compile("; (build rows looked up|probe rows marked|hash table over|the probe side is"
                    + "|nested loop)").matcher(line).find(), "no lookup: " + line);
        }
        if (node.startsWith("HashJoin") || node.startsWith("DenseJoin") || node.startsWith("Aggregate")
                || node.startsWith("Sort")) {
            assertTrue(Pattern.compile("; state ~\\d").matcher(line).find(), "no state size: " + line);
        }
    }

    /** EXPLAIN names columns, writes dates as dates and shows no Java: column indexes, records, class names. */
    private static void assertReadable(String explained) {
        assertFalse(Pattern.compile("(?<!\\w)\\$\\d").matcher(explained).find(), "a column by index in\n" + explained);
        for (String java : List.of("Call[", "SortKey[", "ColumnRef", "Literal[", "dev.starling", "Optional[", "java.")) {
            assertFalse(explained.contains(java), java + " in\n" + explained);
        }
        assertFalse(Pattern.compile("date\\w*\\s*(<=|>=|<>|<|>|=)\\s*-?\\d").matcher(explained).find(),
                "a date compared with a day number in\n" + explained);
    }

}

package dev.starling.gpu.plan;

import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.exec.BackendMode;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Placer;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.Quantities;
import dev.starling.exec.plan.SortNode;
import dev.starling.gpu.hybrid.OversizedJoinModel;
import dev.starling.gpu.pipeline.CloneChoice;
import dev.starling.gpu.pipeline.DimensionHashTable;
import dev.starling.gpu.pipeline.FactScan;
import dev.starling.gpu.pipeline.GroupFilter;
import dev.starling.gpu.pipeline.GroupOrder;
import dev.starling.gpu.pipeline.GroupProgram;
import dev.starling.gpu.pipeline.RowOrder;
import dev.starling.gpu.pipeline.RowSort;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.gpu.pipeline.StarPipelineCompiler;
import dev.starling.gpu.pipeline.Unsupported;
import dev.starling.storage.Catalog;
import dev.starling.storage.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * Places pipelines on a GPU described by a {@link DeviceProfile}, before the query runs and
 * without the device: compiles each candidate pipeline to a star pipeline once, decides whether the
 * GPU runs it ({@link GpuPlacement}), and how (a hash join past the memory budget hybrid or
 * partitioned, a clone layout or none, alone or sharing the fact rows with the CPU workers),
 * keeping the reasons for EXPLAIN. The executor hands the resulting {@link GpuPipelinePlan} to the
 * GPU backend as it is.
 */
public final class GpuPlanner implements Placer {
    private final DeviceProfile profile;
    private final long budget;
    private final Predicate<Column> resident;
    private final StoredConflicts conflicts;
    private final OversizedJoinModel joins;
    private final CoProcessingModel coProcessing;
    private final Catalog catalog;
    private final int workers = Runtime.getRuntime().availableProcessors();
    /** Under auto, fewer rows than this reaching a sort on the host are sorted on the CPU. */
    static final double AUTO_MIN_SORT_ROWS = 100_000;
    /**
     * Under auto, the plan over the groups is computed on the GPU only where it keeps many of them
     * from coming back: a condition the HAVING terms do not already apply while compacting, over
     * this many groups or more. Else the CPU computes it over the groups that come back, in
     * microseconds over TPC-H's few (Q11, Q14, Q17 at SF 10), against a program's launches and
     * synchronizations on the GPU, which measured slower (docs/BENCHMARKS.md).
     */
    static final double AUTO_MIN_PROGRAM_GROUPS = 100_000;

    /**
     * {@code budget}: the device memory its pipelines may take; {@code resident}: whether a column
     * is in device memory already (only what EXPLAIN says of the copy depends on it); {@code catalog}:
     * the tables plans read.
     */
    public GpuPlanner(DeviceProfile profile, long budget, Predicate<Column> resident, StoredConflicts conflicts,
                      Catalog catalog) {
        this.catalog = catalog;
        this.profile = profile;
        this.budget = budget;
        this.resident = resident;
        this.conflicts = conflicts;
        this.joins = new OversizedJoinModel(profile);
        this.coProcessing = new CoProcessingModel(profile);
    }

    /** A planner for a device of {@code profile} that is not here: its default budget, nothing resident. */
    public static GpuPlanner forProfile(DeviceProfile profile, Catalog catalog) {
        return new GpuPlanner(profile, profile.defaultBudget(), c -> false, new StoredConflicts(profile.banks()), catalog);
    }

    public DeviceProfile profile() {
        return profile;
    }

    /**
     * The GPU applies the terms of the HAVING it can to the groups, decodes only the first groups a
     * sort with a limit keeps, and computes the plan over them that tops a pipeline of its own
     * where it can ({@link GroupProgram}; under auto, where it pays:
     * {@link #AUTO_MIN_PROGRAM_GROUPS}), unless the pipeline shares its fact rows with the CPU
     * workers (their groups are merged on the host, after it).
     */
    @Override
    public Placement aggregate(AggregateNode node, GroupsWanted wanted, PlanEstimates estimates, Settings settings) {
        if (settings.backend() == BackendMode.CPU) {
            return Placement.cpu("session backend is cpu");
        }
        StarPipeline pipeline;
        try {
            pipeline = StarPipelineCompiler.compile(node, catalog);
        } catch (Unsupported e) {
            return Placement.cpu("the GPU cannot run " + e.getMessage());
        }
        pipeline = hashTablesWithinBudget(pipeline);
        var tooMany = pipeline.tooManyGroups();
        if (tooMany.isPresent()) {
            return Placement.cpu("the GPU cannot run " + tooMany.get());
        }
        GroupFilter groupFilter = settings.backend() == BackendMode.BOTH ? null
                : GroupFilter.of(pipeline, wanted.having(), wanted.scalar()).orElse(null);
        GroupOrder order = GroupOrder.of(pipeline, wanted.first()).orElse(null);
        // an extreme of the groups is the first of those the order cut keeps
        boolean cuts = order != null || pipeline.keys().isEmpty();
        boolean manyGroups = estimates.rows(node).orElse(Double.MAX_VALUE) >= AUTO_MIN_PROGRAM_GROUPS;
        boolean forced = settings.backend() == BackendMode.GPU;
        GroupProgram program = wanted.above() == null || settings.backend() == BackendMode.BOTH ? null
                : GroupProgram.of(pipeline, wanted.above()).filter(p -> !p.extreme() || cuts)
                        .filter(p -> forced || manyGroups && groupFilter == null && !p.filters().isEmpty()).orElse(null);
        // groups filtered on the GPU, by HAVING terms or a program, come back fewer, from it alone
        boolean filtered = groupFilter != null || program != null && !program.filters().isEmpty();
        GpuPlacement.Verdict verdict = GpuPlacement.place(pipeline, settings.backend(), resident, filtered,
                estimates.rows(node), estimates);
        long expectedGroups = estimates.rows(node).isPresent()
                ? (long) Math.min(StarPipeline.NO_ESTIMATE, Math.ceil(estimates.rows(node).getAsDouble())) : StarPipeline.NO_ESTIMATE;
        if (!verdict.gpu()) {
            return Placement.cpu(verdict.reason());
        }
        long tableMemory = tableMemory(pipeline);
        List<String> reasons = new ArrayList<>(List.of(verdict.reason(), "device memory ~"
                + Quantities.bytes(deviceMemory(pipeline)) + " for fact columns, dimensions and group states, of a "
                + Quantities.bytes(budget) + " budget"));
        String scan = FactScan.plan(pipeline, streams(pipeline));
        if (!scan.isEmpty()) {
            reasons.add(scan);
        }
        int strategy = reasons.size();
        reasons.add(pipeline.groupStrategy(expectedGroups));
        List<String> gpuBuilt = pipeline.dimensions().stream().filter(StarPipeline.Dimension::builtOnGpu)
                .map(d -> d.gpuBuild().fact().name()).toList();
        if (!gpuBuilt.isEmpty()) {
            reasons.add("dimensions built on the GPU: " + String.join(", ", gpuBuilt));
        }
        if (groupFilter != null) {
            reasons.add("HAVING " + groupFilter.text() + " applied to the groups on the GPU");
        }
        reasons.addAll(oversizedJoins(pipeline, settings, tableMemory));
        CloneChoice clones = CloneChoice.of(pipeline, settings, profile.banks(), profile.sharedMemoryPerBlock(),
                conflicts::of);
        if (!clones.reason().isEmpty()) {
            reasons.add(clones.reason());
        }
        if (pipeline.hasDistinct()) {
            reasons.add("the GPU alone: a DISTINCT aggregate's values are told apart in one set, which the CPU workers "
                    + "cannot share");
        }
        if (settings.backend() == BackendMode.GPU || filtered || pipeline.hasDistinct()) {
            return alone(reasons, plan(pipeline, clones, groupFilter, order, program, expectedGroups, List.of()));
        }
        CoProcessingModel.Prediction shared = coProcessing.predict(pipeline, GpuPlacement.factBytes(pipeline),
                tableMemory, workers);
        reasons.add(CoProcessingModel.reason(shared, settings.backend()));
        // shared with the CPU workers, its group table is sized for every group there can be
        List<String> whenShared = new ArrayList<>(reasons);
        whenShared.set(strategy, pipeline.groupStrategy(StarPipeline.NO_ESTIMATE));
        return settings.backend() == BackendMode.BOTH || shared.shares()
                ? Placement.both(String.join("; ", whenShared), plan(pipeline, clones, null, null, null,
                        StarPipeline.NO_ESTIMATE, shared.sharedTables()))
                : alone(reasons, plan(pipeline, clones, null, order, program, expectedGroups, List.of()));
    }

    /**
     * The GPU alone runs {@code plan}, for {@code reasons} and, when it has them, the order in which
     * its first groups are decoded and the plan over them it computes.
     */
    private static Placement alone(List<String> reasons, GpuPipelinePlan plan) {
        List<String> why = new ArrayList<>(reasons);
        if (plan.order() != null) {
            why.add(plan.order().describe());
        }
        if (plan.program() != null) {
            why.add("[" + plan.program().text() + "] computed from the groups on the GPU");
        }
        return Placement.gpu(String.join("; ", why), plan);
    }

    /**
     * Result rows go to the GPU only when the session asks for it, since how many rows pass, and so
     * cross back over the link, is not known in advance, unless a sort with a limit keeps only the
     * first of them, which the GPU then picks ({@link RowOrder}), or they feed a sort the GPU can
     * apply ({@link RowSort}), which would hold them all on the CPU too.
     */
    @Override
    public Placement rows(PlanNode top, SortNode sort, PlanEstimates estimates, Settings settings) {
        return rows(top, sort, false, estimates, settings);
    }

    /** As {@link #rows}: the join consumes them whole too (TPC-H Q20's partsupp rows of the parts it names). */
    @Override
    public Placement joinInput(PlanNode top, PlanEstimates estimates, Settings settings) {
        return rows(top, null, true, estimates, settings);
    }

    /** {@code top}'s rows, which the CPU consumes whole where they go ({@code heldWhole}: a join's input) or not. */
    private Placement rows(PlanNode top, SortNode sort, boolean heldWhole, PlanEstimates estimates, Settings settings) {
        if (settings.backend() != BackendMode.GPU && settings.backend() != BackendMode.AUTO) {
            return Placement.cpu(settings.backend() == BackendMode.CPU ? "session backend is cpu"
                    : "result rows go to the GPU under SET backend = 'gpu' or 'auto'");
        }
        StarPipeline pipeline;
        try {
            pipeline = hashTablesWithinBudget(StarPipelineCompiler.compileRows(top, catalog));
        } catch (Unsupported e) {
            return Placement.cpu("the GPU cannot run " + e.getMessage());
        }
        RowOrder order = RowOrder.of(pipeline, sort == null ? null : GroupsWanted.First.of(sort), estimates.rows(top))
                .orElse(null);
        RowSort rowSort = sort == null ? null : RowSort.of(pipeline, sort).orElse(null);
        OptionalDouble back = order == null || estimates.rows(top).isEmpty() ? estimates.rows(top)
                : OptionalDouble.of(Math.min(estimates.rows(top).getAsDouble(), order.count()));
        GpuPlacement.Verdict verdict = GpuPlacement.placeRows(pipeline, settings.backend(), resident, back,
                rowSort != null || heldWhole, estimates);
        if (!verdict.gpu()) {
            return Placement.cpu(verdict.reason());
        }
        GpuPipelinePlan plan = new GpuPipelinePlan(profile.name(), pipeline, CloneChoice.NONE, null, null, null,
                StarPipeline.NO_ESTIMATE, List.of(), order, rowSort);
        List<String> why = new ArrayList<>(List.of(verdict.reason()));
        String scan = FactScan.plan(pipeline, streams(pipeline));
        if (!scan.isEmpty()) {
            why.add(scan);
        }
        if (order != null) {
            why.add(order.describe());
        }
        if (rowSort != null) {
            why.add(rowSort.describe());
        }
        return Placement.gpu(String.join("; ", why), plan);
    }

    /**
     * A sort over rows that reach it on the host goes to the GPU when the session forces it there,
     * and under auto when the optimizer expects at least {@link #AUTO_MIN_SORT_ROWS} of them: the
     * CPU sorts fewer in about the time their keys take to cross the link and back.
     */
    @Override
    public Placement sort(SortNode node, PlanEstimates estimates, Settings settings) {
        if (settings.backend() != BackendMode.GPU && settings.backend() != BackendMode.AUTO) {
            return Placement.cpu("session backend is " + settings.backend().name().toLowerCase(java.util.Locale.ROOT));
        }
        OptionalDouble rows = estimates.rows(node.input());
        if (settings.backend() == BackendMode.AUTO && (rows.isEmpty() || rows.getAsDouble() < AUTO_MIN_SORT_ROWS)) {
            return Placement.cpu(rows.isEmpty() ? "no estimate of the rows it sorts"
                    : String.format("~%.0f rows to sort: fewer than the GPU pays for", rows.getAsDouble()));
        }
        return Placement.gpu("sorted on the GPU: the keys of the rows it reads copied there, their order back",
                new GpuSortPlan(profile.name()));
    }

    private GpuPipelinePlan plan(StarPipeline pipeline, CloneChoice clones, GroupFilter having, GroupOrder order,
                                 GroupProgram program, long expectedGroups, List<Integer> sharedTables) {
        return new GpuPipelinePlan(profile.name(), pipeline, clones, having, order, program, expectedGroups,
                sharedTables, null, null);
    }

    /**
     * {@code pipeline} with each hashed dimension the GPU would build whose hash table and key words
     * do not fit what the budget leaves beside the fact columns and group contributions built on
     * the CPU instead: the GPU builds a table whole in device memory, while one the CPU builds is
     * placed hybrid or partitioned when it does not fit, or shared with the CPU workers.
     */
    private StarPipeline hashTablesWithinBudget(StarPipeline pipeline) {
        long left = tableMemory(pipeline);
        List<StarPipeline.Dimension> dims = new ArrayList<>();
        for (StarPipeline.Dimension dim : pipeline.dimensions()) {
            if (dim.hashed() && dim.builtOnGpu()) {
                // the table, and the 8-byte key and NULL flag the build writes per table row
                long bytes = DimensionHashTable.bytesFor(dim.range()) + 9 * dim.range();
                dim = bytes > left ? dim.builtOnCpu() : dim;
                left -= dim.builtOnGpu() ? bytes : 0;
            }
            dims.add(dim);
        }
        return pipeline.withDimensions(dims);
    }

    /** Device memory the budget leaves for the pipeline's hash tables beside its fact scan and group contributions. */
    private long tableMemory(StarPipeline pipeline) {
        return Math.max(0, budget - factDeviceBytes(pipeline) - contributions(pipeline));
    }

    /**
     * Whether the pipeline's fact columns stream through device buffers ({@link FactScan}): when
     * they, the group contributions and states and the DISTINCT sets do not fit the budget (a hash
     * table that does not fit beside them runs hybrid or partitioned; the run decides again with
     * the memory it finds free).
     */
    private boolean streams(StarPipeline pipeline) {
        return GpuPlacement.factBytes(pipeline) + contributions(pipeline) + pipeline.groupStateBytes()
                + pipeline.distinctSetBytes() > budget;
    }

    /** Device memory the pipeline's fact scan holds: its columns, or the buffers it streams them through. */
    private long factDeviceBytes(StarPipeline pipeline) {
        return streams(pipeline) ? FactScan.streamedBytes(pipeline) : GpuPlacement.factBytes(pipeline);
    }

    /** The dimensions' per-code contributions to group ids, an int per code. */
    private static long contributions(StarPipeline pipeline) {
        return pipeline.dimensions().stream().mapToLong(d -> 4 * d.range()).sum();
    }

    /**
     * Device memory the pipeline's fact scan (its columns, or its buffers), group contributions,
     * hash tables and DISTINCT sets take, at most, and its aggregate states at least.
     */
    private long deviceMemory(StarPipeline pipeline) {
        return factDeviceBytes(pipeline) + stateBytes(pipeline);
    }

    /** Device memory the pipeline's group contributions, hash tables and DISTINCT sets take, at most, and its aggregate states at least. */
    private static long stateBytes(StarPipeline pipeline) {
        long tables = pipeline.dimensions().stream().filter(StarPipeline.Dimension::hashed)
                .mapToLong(d -> DimensionHashTable.bytesFor(d.range())).sum();
        return contributions(pipeline) + tables + pipeline.groupStateBytes() + pipeline.distinctSetBytes();
    }

    /**
     * For each hash join whose table would not fit the {@code left} bytes of the budget beside the
     * fact columns and the dimensions' group contributions, how it would run and why (the run
     * decides again with the sizes it meets).
     */
    private List<String> oversizedJoins(StarPipeline pipeline, Settings settings, long left) {
        List<String> out = new ArrayList<>();
        for (int d = 0; d < pipeline.dimensions().size(); d++) {
            StarPipeline.Dimension dim = pipeline.dimensions().get(d);
            long bytes = DimensionHashTable.bytesFor(dim.range());
            if (dim.hashed() && bytes > left) {
                out.add("dimension " + d + ": " + joins.choose(settings.oversizedJoin(),
                        pipeline.probeKeyColumn(d) >= 0, pipeline.fact().rowCount(), dim.range(), bytes, left).reason());
            }
        }
        return out;
    }
}

package dev.starling.gpu.plan;

import dev.starling.exec.BackendMode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * Whether a pipeline the GPU can run goes there at all: forced onto the GPU when the session asks
 * for that (alone, or with the CPU workers: backend both); otherwise (auto) on the GPU unless the
 * fact table is small, or the dimensions built on the CPU (and copied over; those the GPU builds
 * cost it one pass over their columns; each no more rows than the optimizer expects) or the groups
 * of fact column keys (read back and finished on the CPU; no more than the optimizer expects) are
 * many next to it, or, for a pipeline of result
 * rows, the optimizer expects many of them. Fact columns stay resident once moved, so their copy is
 * paid once. {@link GpuPlanner} adds how it runs there.
 */
final class GpuPlacement {
    /** Whether the GPU runs it, and why. */
    record Verdict(boolean gpu, String reason) {
        static Verdict cpu(String reason) {
            return new Verdict(false, reason);
        }

        static Verdict onGpu(String reason) {
            return new Verdict(true, reason);
        }
    }

    /** Below this many fact rows the CPU answers about as fast as a GPU round trip. */
    static final long AUTO_MIN_ROWS = 1 << 20;
    /**
     * Past one dimension row built on the CPU per this many fact rows, copying the dimensions costs
     * more than the kernel saves (the CPU backend builds them too). Measured at SF 10
     * (docs/BENCHMARKS.md): TPC-H Q9, 10M such rows (part, partsupp) under 60M, runs 4.6x faster on
     * the GPU, Q2, 2M under partsupp's 8M, 1.4x; Q8 lost while it built 15M orders for 60M rows.
     */
    static final long AUTO_MAX_DIMENSION_SHARE = 2;
    /**
     * Past one group from fact column keys per this many fact rows, decoding the groups and
     * finishing them on the host costs more than the kernel saves (measured at SF 10: TPC-H Q18's
     * 15M groups by order under lineitem, docs/BENCHMARKS.md).
     */
    static final long AUTO_MAX_GROUP_SHARE = 8;
    /**
     * The most result rows, as the optimizer estimates them, that {@code auto} has the GPU produce:
     * the GPU hands a pipeline's rows back whole, where the CPU streams them batch by batch.
     */
    static final double AUTO_MAX_RESULT_ROWS = 100_000;

    private GpuPlacement() { }

    /**
     * Where {@code pipeline} (compiled for the GPU) runs under {@code mode} (not CPU);
     * {@code groupsFiltered}: whether a HAVING keeps groups from coming back, so that their number
     * does not count against the GPU; {@code estimatedGroups}: the optimizer's estimate of them,
     * which bounds those the group keys' ranges allow (their product overestimates keys that
     * depend on each other, or rows a join or filter keeps few of); {@code estimates}: the plan's,
     * which bound each dimension's rows likewise (a join's build side from an aggregation, whose
     * range is its input's rows: TPC-H Q20's lineitem sums by part and supplier).
     */
    static Verdict place(StarPipeline pipeline, BackendMode mode, Predicate<Column> resident, boolean groupsFiltered,
                         OptionalDouble estimatedGroups, PlanEstimates estimates) {
        if (mode == BackendMode.GPU || mode == BackendMode.BOTH) {
            return Verdict.onGpu("session backend is " + mode.name().toLowerCase(java.util.Locale.ROOT));
        }
        Table fact = pipeline.fact();
        if (fact.rowCount() < AUTO_MIN_ROWS) {
            return Verdict.cpu(fact.rowCount() + " fact rows, too few to pay for a GPU round trip");
        }
        long dimensionRows = pipeline.dimensions().stream().filter(d -> !d.builtOnGpu())
                .mapToLong(d -> expectedRows(d.build(), estimates).stream()
                        .mapToLong(rows -> (long) Math.min(d.range(), Math.ceil(rows))).findFirst().orElse(d.range()))
                .sum();
        if (dimensionRows * AUTO_MAX_DIMENSION_SHARE > fact.rowCount()) {
            return Verdict.cpu(dimensionRows + " dimension rows for " + fact.rowCount()
                    + " fact rows: building them on the CPU costs more than the GPU saves");
        }
        long groups = pipeline.factKeyGroups();
        if (estimatedGroups.isPresent()) {
            groups = (long) Math.min(groups, Math.ceil(estimatedGroups.getAsDouble()));
        }
        if (!groupsFiltered && groups > fact.rowCount() / AUTO_MAX_GROUP_SHARE) {
            return Verdict.cpu(groups + " groups from fact columns for " + fact.rowCount()
                    + " fact rows: reading them back and finishing them on the CPU costs more than the GPU saves");
        }
        long toMove = 0;
        for (int c : pipeline.factColumns()) {
            Column column = fact.column(c);
            toMove += resident.test(column) ? 0 : columnBytes(fact, column);
        }
        return Verdict.onGpu(String.format("%d fact rows, %.0f MB of fact columns, %.0f MB not yet resident",
                fact.rowCount(), factBytes(pipeline) / 1e6, toMove / 1e6));
    }

    /**
     * Where a pipeline of result rows (compiled for the GPU) runs under {@code mode} (GPU or auto):
     * under auto as an aggregation's would, and only when the optimizer expects at most
     * {@link #AUTO_MAX_RESULT_ROWS} of them ({@code estimatedRows}; none: the CPU), unless the CPU
     * would consume them whole too ({@code heldWhole}: the GPU sorts them, or they are a join's input).
     */
    static Verdict placeRows(StarPipeline pipeline, BackendMode mode, Predicate<Column> resident,
                             OptionalDouble estimatedRows, boolean heldWhole, PlanEstimates estimates) {
        Verdict verdict = place(pipeline, mode, resident, false, OptionalDouble.empty(), estimates);
        if (mode != BackendMode.AUTO || !verdict.gpu() || heldWhole) {
            return verdict;
        }
        if (estimatedRows.isEmpty() || estimatedRows.getAsDouble() > AUTO_MAX_RESULT_ROWS) {
            return Verdict.cpu((estimatedRows.isEmpty() ? "no estimate of its result rows"
                    : String.format("~%.0f result rows", estimatedRows.getAsDouble()))
                    + ": the GPU hands rows back whole, the CPU streams them");
        }
        return verdict;
    }

    /**
     * The rows the optimizer expects of {@code node}, or of the plan under its projections (a
     * dimension's build side as its kernel reads it); empty when it has no estimate.
     */
    private static OptionalDouble expectedRows(PlanNode node, PlanEstimates estimates) {
        OptionalDouble rows = estimates.rows(node);
        return rows.isPresent() || !(node instanceof ProjectNode p) ? rows : expectedRows(p.input(), estimates);
    }

    /** Bytes of the fact columns {@code pipeline} reads, in device memory. */
    static long factBytes(StarPipeline pipeline) {
        Table fact = pipeline.fact();
        return pipeline.factColumns().stream().mapToLong(c -> columnBytes(fact, fact.column(c))).sum();
    }

    private static long columnBytes(Table fact, Column column) {
        return fact.rowCount() * (column.physical().width + (column.stats().nulls() > 0 ? 1 : 0));
    }
}

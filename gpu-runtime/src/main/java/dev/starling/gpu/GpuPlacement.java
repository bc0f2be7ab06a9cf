package dev.starling.gpu;

import dev.starling.exec.accel.BackendMode;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.gpu.pipeline.StarPipeline;
import dev.starling.gpu.pipeline.StarPipelineCompiler;
import dev.starling.gpu.pipeline.Unsupported;
import dev.starling.storage.Column;
import dev.starling.storage.Table;
import java.util.function.Predicate;

/**
 * Where an aggregation pipeline runs: on the CPU when the session asks for it or the GPU cannot
 * run the pipeline; forced onto the GPU when the session asks for that (alone, or with the CPU
 * workers: backend both); otherwise (auto) on the
 * GPU unless the fact table is small, or the dimensions (built on the CPU and copied over) or the
 * groups of fact column keys (read back and finished on the CPU) are many next to it. Fact columns
 * stay resident once moved, so their copy is paid once.
 */
public final class GpuPlacement {
    /** Below this many fact rows the CPU answers about as fast as a GPU round trip. */
    static final long AUTO_MIN_ROWS = 1 << 20;
    /**
     * Past one dimension row (or group) per this many fact rows (TPC-H's orders under lineitem)
     * building and copying the dimensions (or decoding the groups) costs more than the kernel saves
     * (measured at SF 10: docs/BENCHMARKS.md).
     */
    static final long AUTO_MAX_DIMENSION_SHARE = 8;

    private GpuPlacement() { }

    /**
     * Where a pipeline of result rows runs: on the GPU only when the session asks for it, since
     * how many rows pass, and so cross back over PCIe, is not known in advance.
     */
    public static Placement placeRows(PlanNode top, BackendMode mode) {
        if (mode != BackendMode.GPU) {
            return Placement.cpu(mode == BackendMode.CPU ? "session backend is cpu"
                    : "result rows go to the GPU only under SET backend = 'gpu'");
        }
        try {
            StarPipelineCompiler.compileRows(top);
        } catch (Unsupported e) {
            return Placement.cpu("the GPU cannot run " + e.getMessage());
        }
        return Placement.gpu("session backend is gpu");
    }

    /** {@code resident}: whether a column is already in device memory. */
    public static Placement place(AggregateNode node, BackendMode mode, Predicate<Column> resident) {
        if (mode == BackendMode.CPU) {
            return Placement.cpu("session backend is cpu");
        }
        try {
            return place(StarPipelineCompiler.compile(node), mode, resident);
        } catch (Unsupported e) {
            return Placement.cpu("the GPU cannot run " + e.getMessage());
        }
    }

    /** Where {@code pipeline} (compiled for the GPU) runs under {@code mode} (not CPU). */
    static Placement place(StarPipeline pipeline, BackendMode mode, Predicate<Column> resident) {
        if (mode == BackendMode.GPU || mode == BackendMode.BOTH) {
            return Placement.gpu("session backend is " + mode.name().toLowerCase(java.util.Locale.ROOT));
        }
        Table fact = pipeline.fact();
        if (fact.rowCount() < AUTO_MIN_ROWS) {
            return Placement.cpu(fact.rowCount() + " fact rows, too few to pay for a GPU round trip");
        }
        long dimensionRows = pipeline.dimensions().stream().mapToLong(StarPipeline.Dimension::range).sum();
        if (dimensionRows * AUTO_MAX_DIMENSION_SHARE > fact.rowCount()) {
            return Placement.cpu(dimensionRows + " dimension rows for " + fact.rowCount()
                    + " fact rows: building them on the CPU costs more than the GPU saves");
        }
        long groups = pipeline.factKeyGroups();
        if (groups > fact.rowCount() / AUTO_MAX_DIMENSION_SHARE) {
            return Placement.cpu(groups + " groups from fact columns for " + fact.rowCount()
                    + " fact rows: reading them back and finishing them on the CPU costs more than the GPU saves");
        }
        long toMove = 0;
        for (int c : pipeline.factColumns()) {
            Column column = fact.column(c);
            toMove += resident.test(column) ? 0 : columnBytes(fact, column);
        }
        return Placement.gpu(String.format("%d fact rows, %.0f MB of fact columns, %.0f MB not yet resident",
                fact.rowCount(), factBytes(pipeline) / 1e6, toMove / 1e6));
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

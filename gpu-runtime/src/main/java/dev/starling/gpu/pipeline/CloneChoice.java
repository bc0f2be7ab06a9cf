package dev.starling.gpu.pipeline;

import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.gpu.clone.AccessMode;
import dev.starling.gpu.cuda.BankGeometry;
import dev.starling.gpu.clone.CloneSpec;
import dev.starling.gpu.clone.ConflictStatistics;
import dev.starling.storage.Column;
import dev.starling.storage.ColumnStats;
import java.util.function.BiFunction;

/**
 * Whether a pipeline's shared-memory table is accessed through a clone layout (Sitaridi and Ross)
 * of the fact column that indexes it, and why (EXPLAIN shows {@code reason}; {@code spec} is null
 * when no layout is used). Writes: grouped counts by one integer fact column fold into 32-bit
 * counters, one per entry of the replicated table, merged into their groups at the end. Reads: a
 * dense dimension staged in shared memory is replicated as the layout's entries and probed at each
 * row's slot ({@code dimension}: which one). Under {@code clone_layouts = auto} no layout is used
 * on the GPUs Starling runs on: on the H100 a layout removes every bank conflict and still loses,
 * since its 4-byte slot per row costs more than the conflicts did (docs/BENCHMARKS.md).
 */
public record CloneChoice(AccessMode mode, int factColumn, int dimension, CloneSpec spec, String reason) {
    public static final CloneChoice NONE = new CloneChoice(null, -1, -1, null, "");

    public boolean used() {
        return spec != null;
    }

    /**
     * The choice for {@code pipeline} under {@code settings}; {@code stored}: a column's conflict
     * statistics as stored (for a window), {@code sharedBytes}: the most shared memory a block may have.
     */
    public static CloneChoice of(StarPipeline pipeline, Settings settings, BankGeometry geometry, long sharedBytes,
                                 BiFunction<Column, Integer, ConflictStatistics> stored) {
        if (settings.clones() == Settings.CloneChoice.OFF) {
            return NONE;
        }
        int c = groupColumn(pipeline);
        AccessMode mode = AccessMode.WRITE;
        int dimension = -1;
        long cardinality;
        long tableBytes;
        if (c >= 0) {
            cardinality = cardinality(pipeline.fact().column(c));
            tableBytes = 4L * pipeline.slots().size();
        } else {
            int probe = probedByForeignKey(pipeline);
            if (probe < 0) {
                return NONE;
            }
            mode = AccessMode.READ;
            dimension = code(pipeline, probe + 3);
            c = pipeline.factColumns().get(code(pipeline, pipeline.definition(code(pipeline, probe + 2)) + 2));
            ColumnStats stats = pipeline.fact().column(c).stats();
            cardinality = pipeline.dimensions().get(dimension).range() + (stats == null || stats.nulls() > 0 ? 1 : 0);
            tableBytes = 4;
            sharedBytes = StarKernelInput.SHARED_MEMORY_BYTES;
        }
        Column column = pipeline.fact().column(c);
        String name = pipeline.fact().name() + "." + column.name();
        int window = mode == AccessMode.WRITE ? settings.cloneWindow() : 0;
        CloneSpec spec = new CloneSpec(mode, settings.cloneBudget(), window, geometry);
        long entries = (long) Math.floor(settings.cloneBudget() * cardinality);
        long bytes = entries * tableBytes;
        if (bytes > sharedBytes) {
            return new CloneChoice(mode, c, dimension, null, "no clone layout: " + entries + " entries of " + name
                    + " need " + bytes + " bytes of shared memory, a block has " + sharedBytes);
        }
        if (settings.clones() == Settings.CloneChoice.ON) {
            return new CloneChoice(mode, c, dimension, spec, "clone layout of " + name + " (" + spec + "): clone_layouts is on");
        }
        ConflictStatistics s = stored.apply(column, window);
        return new CloneChoice(mode, c, dimension, null, String.format("no clone layout: %s has %.2f %s rounds per warp as "
                + "stored, which cost this GPU less than a layout's slot column would", name,
                mode == AccessMode.WRITE ? s.writeRounds() : s.readRounds(), mode == AccessMode.WRITE ? "write" : "read"));
    }

    /** The fact column a pipeline of counts groups by alone, when a clone layout could serve it; else -1. */
    static int groupColumn(StarPipeline pipeline) {
        if (!countsOnly(pipeline) || pipeline.keys().size() != 1) {
            return -1;
        }
        StarPipeline.GroupKey key = pipeline.keys().get(0);
        if (key.dimension() >= 0 || key.referenced() || key.factColumn() < 0) {
            return -1;
        }
        Column column = pipeline.fact().column(key.factColumn());
        ColumnStats stats = column.stats();
        boolean integral = switch (column.type().kind()) {
            case INTEGER, BIGINT, DATE -> true;
            default -> false;
        };
        return integral && !column.isDenseCoded() && stats != null && stats.rows() > stats.nulls()
                ? key.factColumn() : -1;
    }

    /** Whether a grouped pipeline's aggregates are all counts a block's 32-bit counters can hold. */
    static boolean countsOnly(StarPipeline pipeline) {
        return pipeline.node() instanceof AggregateNode && !pipeline.keys().isEmpty()
                && pipeline.slots().stream().allMatch(s -> s.kind() == AggKind.COUNT && s.distinct() == null)
                && pipeline.fact().rowCount() < 1L << 32;
    }

    /**
     * The first probe of a dense dimension by a foreign key column's codes as loaded (its program
     * position), else -1; an ANTI join's probe joins no row, so it has nothing to copy.
     */
    static int probedByForeignKey(StarPipeline pipeline) {
        if (!(pipeline.node() instanceof AggregateNode) || pipeline.fact().rowCount() >= 1L << 32) {
            return -1;
        }
        int[] code = pipeline.code();
        for (int pc = 0; pc < code.length; pc += 4) {
            if (Opcode.values()[code[pc] & 0xff] != Opcode.PROBE || code[pc] >> 8 != 0
                    || pipeline.dimensions().get(code[pc + 3]).hashed()) {
                continue;
            }
            int loaded = pipeline.definition(code[pc + 2]);
            if (loaded >= 0 && Opcode.values()[code[loaded] & 0xff] == Opcode.LOAD_FACT
                    && pipeline.fact().column(pipeline.factColumns().get(code[loaded + 2])).isDenseCoded()) {
                return pc;
            }
        }
        return -1;
    }

    private static int code(StarPipeline pipeline, int at) {
        return pipeline.code()[at];
    }

    /** The codes of a grouping column: one per value from its minimum to its maximum, and one for NULL. */
    static long cardinality(Column column) {
        ColumnStats stats = column.stats();
        return stats.max() - stats.min() + 1 + (stats.nulls() > 0 ? 1 : 0);
    }
}

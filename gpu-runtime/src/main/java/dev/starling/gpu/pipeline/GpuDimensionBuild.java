package dev.starling.gpu.pipeline;

import dev.starling.exec.Settings.OversizedJoin;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.gpu.cache.GpuColumnCache;
import dev.starling.gpu.cuda.DeviceBuffer;
import dev.starling.gpu.cuda.GpuDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import jcuda.Pointer;

/**
 * A dense dimension built on the GPU ({@link StarPipeline.Dimension#gpuBuild}): one launch of its
 * pipeline over every row of its table (columns leased from the column cache, so they stay
 * resident for the next query), which writes, at the index of each row that passes its filters,
 * the row's group contribution (the index, or the digit it computes from its keys' values, times
 * its digit's multiplier; 0 when no group key is from it) and the columns the fact pipeline reads; every other contribution stays -1, so the
 * fact pipeline's probe drops the rows that point there. A marking build writes at the codes its
 * rows hold instead, folding their values there (an aggregation's groups, folded at their codes,
 * with an outer join's row of NULLs after them). A hashed dimension's build also writes
 * each passing row's join key ({@code keys}, 64-bit, its NULL flag set for every row that did not
 * pass), from which its hash table is built; the probe then finds a key's row index there. Nothing
 * crosses the link but the table's columns the first time they are read and the program's constants.
 * {@code contributions}, {@code columns} and {@code keys} (null for a dense dimension) live in the
 * fact pipeline's arrays, as long as its run.
 */
record GpuDimensionBuild(long contributions, List<StarKernelInput.Column> columns, StarKernelInput.Column keys) {

    /**
     * Builds {@code dim}, whose contributions are 64-bit when {@code wide}, into {@code arrays};
     * {@code read}: the columns of it the fact pipeline reads, in the order of its build pipeline's
     * outputs. Throws {@link Unsupported} when its kernel meets a value it leaves to the CPU.
     */
    static GpuDimensionBuild run(GpuDevice device, GpuColumnCache cache, StarPipeline.Dimension dim,
                                 List<StarPipeline.DimColumn> read, DeviceArrays arrays, boolean wide, long multiplier,
                                 DeviceInputs inputs) throws Unsupported {
        StarPipeline build = dim.gpuBuild();
        List<AggKind> folds = read.stream().map(StarPipeline.DimColumn::fold).filter(Objects::nonNull).toList();
        boolean marked = marked(dim, folds);
        long positions = dim.densePositions();
        DeviceBuffer contributions = arrays.allocate(positions * (wide ? 8 : 4), "dimension group contributions");
        contributions.fill(marked ? (byte) 0xff : 0, contributions.bytes());
        List<StarKernelInput.Output> outputs = new ArrayList<>();
        List<StarKernelInput.Column> columns = new ArrayList<>();
        for (int o = 0; o < read.size(); o++) {
            int width = read.get(o).expr().type().physical().width;
            DeviceBuffer values = arrays.allocate(positions * width, "dimension column");
            if (read.get(o).fold() != null) {
                fillIdentity(values, width, read.get(o).fold());
            }
            DeviceBuffer nulls = null;
            if (read.get(o).expr().nullable() || dim.outer()) {
                nulls = arrays.allocate(positions, "dimension column NULL flags");
                if (dim.marks()) {
                    // a marking build writes no flags: a fold is not NULL where a row is (it folds values
                    // that are not, or counts them); the outer row of NULLs is set below
                    nulls.clear();
                }
            }
            int register = ((StarPipeline.Output.Value) build.outputs().get(o)).register();
            long nullFlags = nulls == null ? 0 : nulls.address();
            outputs.add(new StarKernelInput.Output(register, values.address(), nullFlags, width));
            columns.add(new StarKernelInput.Column(values.address(), nullFlags, width));
            if (dim.outer()) {
                nulls.upload(Pointer.to(new byte[] {1}), dim.range(), 1);
            }
        }
        if (dim.outer()) {
            // the row of NULLs, which a probe that finds no code reads, adds nothing to the group id
            contributions.upload(Pointer.to(new byte[wide ? 8 : 4]), dim.range() * (wide ? 8 : 4), wide ? 8 : 4);
        }
        StarKernelInput.Column keys = null;
        if (dim.hashed()) {
            DeviceBuffer values = arrays.allocate(dim.range() * 8, "dimension join keys");
            DeviceBuffer passed = arrays.allocate(dim.range(), "dimension join key NULL flags");
            // a row that does not pass leaves its flag set, so the hash table leaves it out like a NULL key
            passed.fill((byte) 1, passed.bytes());
            keys = new StarKernelInput.Column(values.address(), passed.address(), 8);
            int register = ((StarPipeline.Output.Value) build.outputs().get(build.outputs().size() - 1)).register();
            outputs.add(new StarKernelInput.Output(register, keys.values(), keys.nulls(), 8));
        }
        try (PipelineInputs in = PipelineInputs.upload(device, cache, build, List.of(),
                PipelineInputs.referencedKeys(build, inputs), (d, r) -> 0, OversizedJoin.AUTO, 0, SharedTables.NONE,
                inputs, true)) {
            DeviceBuffer constants = in.arrays().upload(build.constants(), "constants");
            DeviceBuffer status = in.arrays().upload(new int[] {0}, "status");
            StarKernelInput input = new StarKernelInput(build.code(), build.constants().length, in.fact(), in.keys(), in.answers(),
                    List.of(), List.of(), List.of(), outputs, StarKernelInput.Accumulators.BY_ROW, null, null, List.of(),
                    new StarKernelInput.RowWrites(contributions.address(), wide, multiplier,
                            dim.valueDigit() == null ? -1 : dim.valueDigit().register(),
                            dim.valueDigit() == null ? 0 : dim.valueDigit().radix(), markedAt(dim), dim.range(), marked,
                            folds),
                    null, constants.address(), status.address(), 0, build.fact().rowCount(), 0);
            StarKernelLauncher.launch(device, StarKernelLauncher.compile(device, input), input, 0);
            String met = KernelStatus.read(status);
            if (!met.isEmpty()) {
                throw new Unsupported("building " + build.fact().name() + " on the GPU: " + met);
            }
        }
        return new GpuDimensionBuild(contributions.address(), columns, keys);
    }

    /**
     * Whether {@code dim}'s build, whose outputs fold by {@code folds}, marks the codes where a row
     * passed: all but a dimension of extremes, which has every code (its identities where no row is).
     */
    static boolean marked(StarPipeline.Dimension dim, List<AggKind> folds) {
        return folds.isEmpty() || dim.foldsGroups();
    }

    /** The register of a marking build's code, its pipeline's last output; -1 for a build written at its rows. */
    private static int markedAt(StarPipeline.Dimension dim) {
        List<StarPipeline.Output> outputs = dim.gpuBuild().outputs();
        return dim.marks() ? ((StarPipeline.Output.Value) outputs.get(outputs.size() - 1)).register() : -1;
    }

    /** Sets every value of {@code column} ({@code width} bytes each) to the identity of fold {@code fold}. */
    private static void fillIdentity(DeviceBuffer column, int width, AggKind fold) {
        long identity = switch (fold) {
            case MIN_I -> width == 8 ? Long.MAX_VALUE : Integer.MAX_VALUE;
            case MAX_I -> width == 8 ? Long.MIN_VALUE : Integer.MIN_VALUE;
            default -> 0;
        };
        column.fill(identity, width);
    }
}

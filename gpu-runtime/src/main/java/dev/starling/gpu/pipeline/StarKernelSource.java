package dev.starling.gpu.pipeline;

import java.util.StringJoiner;

/**
 * Generates the fused kernel of one star pipeline as CUDA C, specialized to its program and
 * shapes, composed of the functions of the kernels' {@code star_pipeline.cuh}: values stay in
 * registers, every fact column is read once, and nothing but the aggregates (or a selection's
 * rows) reaches memory. The grid strides over tiles of {@code items} rows per thread (row
 * {@code tile + i * blockDim + thread}, so each load is coalesced): more rows per thread keep more
 * loads in flight, but a large program's registers then cut occupancy.
 */
final class StarKernelSource {
    static final String ENTRY = "star_pipeline";
    /** Rows per thread per tile to try, most first: four keep enough independent loads in flight to cover memory latency. */
    static final int[] ITEMS = {4, 2, 1};

    private StarKernelSource() { }

    static String generate(StarKernelInput in, int items) {
        CudaWriter out = new CudaWriter();
        out.line("const unsigned lane = threadIdx.x & 31;");
        out.line("const long long tile = (long long)blockDim.x * %d;", items);
        out.line("unsigned status = 0;");
        for (int k = 0; k < in.constantCount(); k++) {
            out.line("const long long c%d = __ldg(constants + %d);", k, k);
        }
        out.line("extern __shared__ __align__(16) unsigned char smem[];");
        String[] row = new String[items];
        for (int i = 0; i < items; i++) {
            row[i] = "r" + i;
        }
        RowProgramSource program = new RowProgramSource(out, in, row);
        program.stageDimensions("smem");
        AggregateSource aggregates = new AggregateSource(out, in.slots());
        String[] globalSlots = aggregates.slotBases("acc", "groups");
        String[] sharedSlots = null;
        String copies = null;
        switch (in.accumulators()) {
            case SCALAR -> aggregates.startPartials();
            case SHARED -> {
                sharedSlots = aggregates.slotBases("smem", "groups");
                aggregates.initShared(sharedSlots, "groups");
            }
            case CLONED -> {
                copies = out.let("const int", "(int)(clone_entries / groups)");
                sharedSlots = aggregates.slotBases("smem", "clone_entries");
                aggregates.initClones(sharedSlots, "clone_entries");
            }
            case COUNTERS -> {
                sharedSlots = aggregates.counterBases("smem", "clone_entries");
                aggregates.initCounters(sharedSlots, "clone_entries");
            }
            case GLOBAL, HASHED, ROWS, ORDER_KEYS, BY_ROW -> { }
        }
        out.open("for (long long base = first + blockIdx.x * tile; base < rows; base += gridDim.x * tile)");
        // a warp whose rows all died leaves the tile with break
        out.open("do");
        for (int i = 0; i < items; i++) {
            out.line("const long long %s = base + %d * (long long)blockDim.x + threadIdx.x;", row[i], i);
        }
        program.startTile();
        program.emit();
        if (in.accumulators() == StarKernelInput.Accumulators.HASHED) {
            aggregates.claimGroupSlots(program, "group_keys", "group_shift", "group_probes");
        }
        aggregates.claimDistinct(program, StarPipeline.distincts(in.slots()));
        switch (in.accumulators()) {
            case SCALAR -> aggregates.accumulate(program);
            case SHARED, GLOBAL, HASHED -> aggregates.foldRows(program,
                    in.accumulators() == StarKernelInput.Accumulators.SHARED ? sharedSlots : globalSlots);
            case CLONED -> aggregates.foldRowsIntoClones(program, sharedSlots, "clone_entries", copies, "lane");
            case COUNTERS -> aggregates.foldCounters(program, sharedSlots, in.clones().remapped() ? "clone_slots" : null);
            case ROWS -> new RowsOutputSource(out, in.outputs()).write(program, "lane", in.order());
            case ORDER_KEYS -> new RowsOutputSource(out, in.outputs()).writeOrderKeys(program, in.order());
            case BY_ROW -> new RowsOutputSource(out, in.outputs()).writeByRow(program, in.rowWrites());
        }
        out.close("while (false);");
        out.close();
        switch (in.accumulators()) {
            case SCALAR -> aggregates.foldWarp("lane", globalSlots);
            case SHARED -> aggregates.mergeShared(sharedSlots, globalSlots, "groups");
            case CLONED -> aggregates.mergeClones(sharedSlots, globalSlots, "groups", "clone_entries", copies);
            case COUNTERS -> aggregates.mergeCounters(sharedSlots, globalSlots, "clone_entries",
                    in.clones().remapped() ? "clone_map" : null);
            case GLOBAL, HASHED, ROWS, ORDER_KEYS, BY_ROW -> { }
        }
        out.line("if (status != 0) atomicOr(status_word, status);");
        return module(in, out.text());
    }

    private static String module(StarKernelInput in, String body) {
        StringBuilder src = new StringBuilder();
        for (KernelStatus s : KernelStatus.values()) {
            src.append("#define ").append(s.macro()).append(' ').append(s.bit).append("u\n");
        }
        src.append("#include \"star_pipeline.cuh\"\n\n");
        StringJoiner params = new StringJoiner(",\n        ", "(\n        ", ")");
        for (StarKernelInput.Parameter p : in.parameters()) {
            params.add(p.type() + " " + p.name());
        }
        src.append("extern \"C\" __global__ void ").append(ENTRY).append(params).append(" {\n");
        return src.append(body).append("}\n").toString();
    }
}

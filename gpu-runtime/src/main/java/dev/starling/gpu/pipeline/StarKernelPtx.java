package dev.starling.gpu.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates the fused kernel of one star pipeline as PTX, specialized to its program and shapes,
 * for the driver to compile: values stay in machine registers, every fact column is read once,
 * and nothing but the aggregates reaches memory. The grid strides over tiles of {@code items}
 * rows per thread (row {@code tile + i * blockDim + thread}, so each load is coalesced): more rows
 * per thread keep more loads in flight, but a large program's registers then cut occupancy.
 */
final class StarKernelPtx {
    static final String ENTRY = "star_pipeline";
    /** Rows per thread per tile to try, most first: four keep enough independent loads in flight to cover memory latency. */
    static final int[] ITEMS = {4, 2, 1};
    private static final String SHARED = "smem";

    private StarKernelPtx() { }

    static String generate(StarKernelInput in, int items) {
        Ptx ptx = new Ptx();
        Map<String, String> param = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (StarKernelInput.Parameter p : in.parameters()) {
            String r = ptx.b64();
            ptx.op("ld.param.u64 %s, [%s]", r, p.name());
            param.put(p.name(), r);
            names.add(p.name());
        }
        String tid32 = ptx.b32();
        ptx.op("mov.u32 %s, %%tid.x", tid32);
        String lane = ptx.b32();
        ptx.op("and.b32 %s, %s, 31", lane, tid32);
        String tid = widen(ptx, tid32);
        String ntid = special(ptx, "%%ntid.x");
        String ctaid = special(ptx, "%%ctaid.x");
        String nctaid = special(ptx, "%%nctaid.x");
        String tile = ptx.b64();
        String base = ptx.b64();
        String stride = ptx.b64();
        ptx.op("mul.lo.u64 %s, %s, %d", tile, ntid, items);
        ptx.op("mul.lo.u64 %s, %s, %s", base, ctaid, tile);
        ptx.op("add.s64 %s, %s, %s", base, base, param.get("first"));
        ptx.op("mul.lo.u64 %s, %s, %s", stride, nctaid, tile);
        String status = ptx.b32();
        ptx.op("mov.b32 %s, 0", status);
        String[] constants = new String[in.constantCount()];
        for (int k = 0; k < constants.length; k++) {
            constants[k] = ptx.b64();
            ptx.op("ld.global.nc.b64 %s, [%s+%d]", constants[k], param.get("constants"), 8 * k);
        }
        String groups = param.get("groups");
        String sharedBase = ptx.b64();
        ptx.op("mov.u64 %s, %s", sharedBase, SHARED);
        String top = ptx.label("tile");
        String next = ptx.label("next_tile");
        String done = ptx.label("done");
        String[] row = new String[items];
        for (int i = 0; i < items; i++) {
            row[i] = ptx.b64();
        }
        RowProgramPtx program = new RowProgramPtx(ptx, in, param::get, constants, status, next, row);
        program.stageDimensions(sharedBase, tid, ntid);
        AggregatePtx aggregates = new AggregatePtx(ptx, in.slots());
        String[] globalSlots = aggregates.slotBases(param.get("acc"), groups);
        String[] sharedSlots = null;
        switch (in.accumulators()) {
            case SCALAR -> aggregates.startPartials();
            case SHARED, WARP_GROUPED -> {
                sharedSlots = aggregates.slotBases(sharedBase, groups);
                aggregates.initShared(sharedSlots, tid, ntid, groups);
            }
            case COUNTERS -> {
                sharedSlots = aggregates.counterBases(sharedBase, param.get("clone_entries"));
                aggregates.initCounters(sharedSlots, tid, ntid, param.get("clone_entries"));
            }
            case GLOBAL, ROWS -> { }
        }
        ptx.place(top);
        String finished = ptx.pred();
        ptx.op("setp.ge.s64 %s, %s, %s", finished, base, param.get("rows"));
        ptx.op("@%s bra %s", finished, done);
        for (int i = 0; i < items; i++) {
            ptx.op("mad.lo.s64 %s, %s, %d, %s", row[i], ntid, i, base);
            ptx.op("add.s64 %s, %s, %s", row[i], row[i], tid);
        }
        program.startTile(param.get("rows"));
        program.emit();
        switch (in.accumulators()) {
            case SCALAR -> aggregates.accumulate(program);
            case SHARED -> aggregates.foldRows(program, "shared", sharedSlots);
            case WARP_GROUPED -> aggregates.foldRowsByWarpGroup(program, sharedSlots, lane);
            case COUNTERS -> aggregates.foldCounters(program, sharedSlots, param.get("clone_slots"));
            case GLOBAL -> aggregates.foldRows(program, "global", globalSlots);
            case ROWS -> new RowsOutputPtx(ptx, in.outputs()).write(program, param::get, lane);
        }
        ptx.place(next);
        ptx.op("add.s64 %s, %s, %s", base, base, stride);
        ptx.op("bra %s", top);
        ptx.place(done);
        switch (in.accumulators()) {
            case SCALAR -> aggregates.foldWarp(lane, globalSlots);
            case SHARED, WARP_GROUPED -> aggregates.mergeShared(sharedSlots, globalSlots, tid, ntid, groups);
            case COUNTERS -> aggregates.mergeCounters(sharedSlots, globalSlots, tid, ntid, param.get("clone_entries"),
                    param.get("clone_map"));
            case GLOBAL, ROWS -> { }
        }
        String failed = ptx.pred();
        ptx.op("setp.ne.u32 %s, %s, 0", failed, status);
        ptx.op("@%s red.global.or.b32 [%s], %s", failed, param.get("status"), status);
        ptx.op("ret");
        return ptx.module(ENTRY, names, SHARED);
    }

    private static String special(Ptx ptx, String register) {
        String r = ptx.b32();
        ptx.op("mov.u32 %s, " + register, r);
        return widen(ptx, r);
    }

    private static String widen(Ptx ptx, String r) {
        String w = ptx.b64();
        ptx.op("cvt.u64.u32 %s, %s", w, r);
        return w;
    }
}

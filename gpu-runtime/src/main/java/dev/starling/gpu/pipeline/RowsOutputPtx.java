package dev.starling.gpu.pipeline;

import java.util.List;

/**
 * A selection kernel's output, in PTX: per tile item, the warp counts its surviving rows with a
 * ballot, its first lane reserves that many places with one atomic on the global row counter, and
 * each surviving row writes its output registers (8 bytes each, and a NULL flag byte) at the
 * warp's base plus its rank among the survivors. Rows past the capacity are counted but not
 * written, so the host learns how much room a second run needs.
 */
final class RowsOutputPtx {
    private final Ptx ptx;
    private final List<StarKernelInput.Output> outputs;

    RowsOutputPtx(Ptx ptx, List<StarKernelInput.Output> outputs) {
        this.ptx = ptx;
        this.outputs = outputs;
    }

    /** {@code param}: the register of a kernel parameter; {@code lane}: the thread's lane (32-bit). */
    void write(RowProgramPtx rows, java.util.function.Function<String, String> param, String lane) {
        String below = ptx.b32();
        ptx.op("mov.u32 %s, %%lanemask_lt", below);
        for (int i = 0; i < rows.alive.length; i++) {
            String survivors = ptx.b32();
            ptx.op("vote.sync.ballot.b32 %s, %s, 0xffffffff", survivors, ptx.plain(rows.alive[i]));
            String count = ptx.b32();
            String count64 = ptx.b64();
            ptx.op("popc.b32 %s, %s", count, survivors);
            ptx.op("cvt.u64.u32 %s, %s", count64, count);
            String base = ptx.b64();
            ptx.op("mov.b64 %s, 0", base);
            String first = ptx.pred();
            ptx.op("setp.eq.u32 %s, %s, 0", first, lane);
            ptx.opIf(first, "atom.global.add.u64 %s, [%s], %s", base, param.apply("acc"), count64);
            String lo = ptx.b32();
            String hi = ptx.b32();
            ptx.op("mov.b64 {%s, %s}, %s", lo, hi, base);
            ptx.op("shfl.sync.idx.b32 %s, %s, 0, 31, 0xffffffff", lo, lo);
            ptx.op("shfl.sync.idx.b32 %s, %s, 0, 31, 0xffffffff", hi, hi);
            String at = ptx.b64();
            ptx.op("mov.b64 %s, {%s, %s}", at, lo, hi);
            String rank = ptx.b32();
            String rank64 = ptx.b64();
            ptx.op("and.b32 %s, %s, %s", rank, survivors, below);
            ptx.op("popc.b32 %s, %s", rank, rank);
            ptx.op("cvt.u64.u32 %s, %s", rank64, rank);
            ptx.op("add.s64 %s, %s, %s", at, at, rank64);
            String room = ptx.pred();
            ptx.op("setp.lt.u64 %s, %s, %s", room, at, param.apply("groups"));
            String writes = ptx.and(rows.alive[i], room);
            for (int o = 0; o < outputs.size(); o++) {
                int r = outputs.get(o).register();
                String value = ptx.b64();
                String flags = ptx.b64();
                ptx.op("mad.lo.s64 %s, %s, 8, %s", value, at, param.apply("out" + o));
                ptx.op("add.s64 %s, %s, %s", flags, at, param.apply("out" + o + "_nulls"));
                ptx.opIf(writes, "st.global.b64 [%s], %s", value, rows.value[r][i]);
                String isNull = rows.nulls[r][i];
                String flag = ptx.b32();
                ptx.op("selp.u32 %s, 1, 0, %s", flag, isNull == null ? Ptx.FALSE : ptx.plain(isNull));
                ptx.opIf(writes, "st.global.u8 [%s], %s", flags, flag);
            }
        }
    }
}

package dev.starling.gpu.pipeline;

import java.util.function.Function;

/**
 * Translates a star pipeline's program into PTX for a tile of rows: each thread runs every
 * instruction for its {@code items} rows in turn, without branches, so the loads of its rows are
 * in flight together. A row that fails a filter or probe is dead: its later loads are predicated
 * off and it folds nothing; when no row of the warp is left, the warp skips the rest of the tile.
 * Semantics are the CPU backend's: exact decimals in scaled longs with overflow checks, doubles
 * as IEEE, three-valued logic, and a NULL's value 0. Anything the kernel cannot finish exactly (an
 * overflow, a division by zero, a code outside its range) sets a status bit and the host hands
 * the pipeline to the CPU.
 */
final class RowProgramPtx {
    static final int OVERFLOW = 1;
    static final int DIVIDE_BY_ZERO = 2;
    static final int BAD_CODE = 4;

    private final Ptx ptx;
    private final StarKernelInput input;
    private final Function<String, String> param;
    private final String[] constant;
    private final String status;
    private final String skip;
    private final String zero;
    final String[] alive;
    final String[] row;
    final String[] group;
    final String[][] value;
    final String[][] nulls;
    private final String[][] truth;
    /** Per staged dimension: its contributions' address in shared memory. */
    private final String[] staged;
    /** Per hashed dimension: its shift as a 32-bit shift amount, and the slot index mask. */
    private final String[] hashShift;
    private final String[] hashMask;

    /**
     * {@code param}: the register holding a kernel parameter; {@code constant}: the registers of the
     * program's constants; {@code status}: the thread's status bits; {@code skip}: where a warp goes
     * when none of its rows is alive; {@code row}: each item's row, already set.
     */
    RowProgramPtx(Ptx ptx, StarKernelInput input, Function<String, String> param, String[] constant, String status,
                  String skip, String[] row) {
        this.ptx = ptx;
        this.input = input;
        this.param = param;
        this.constant = constant;
        this.status = status;
        this.skip = skip;
        this.row = row;
        int items = row.length;
        int registers = 1;
        for (int pc = 0; pc < input.code().length; pc += 4) {
            registers = Math.max(registers, input.code()[pc + 1] + 1);
        }
        value = new String[registers][items];
        nulls = new String[registers][items];
        truth = new String[registers][items];
        alive = new String[items];
        group = new String[items];
        zero = ptx.b64();
        ptx.op("mov.b64 %s, 0", zero);
        staged = new String[input.dimensions().size()];
        hashShift = new String[input.dimensions().size()];
        hashMask = new String[hashShift.length];
        for (int d = 0; d < hashShift.length; d++) {
            StarKernelInput.Dimension dim = input.dimensions().get(d);
            if (dim.hashed() && !dim.hash().matched()) {
                hashShift[d] = ptx.b32();
                hashMask[d] = ptx.b64();
                ptx.op("cvt.u32.u64 %s, %s", hashShift[d], param.apply("dim" + d + "_shift"));
                ptx.op("mov.b64 %s, -1", hashMask[d]);
                ptx.op("shr.u64 %s, %s, %s", hashMask[d], hashMask[d], hashShift[d]);
            }
        }
    }

    /**
     * Copies the staged dimensions' contributions into the block's shared memory at {@code sharedBase}
     * (every thread a share), then waits for the whole block; run once, before the first tile.
     */
    void stageDimensions(String sharedBase, String tid, String ntid) {
        boolean any = false;
        for (int d = 0; d < staged.length; d++) {
            StarKernelInput.Dimension dim = input.dimensions().get(d);
            if (!dim.isStaged()) {
                continue;
            }
            any = true;
            staged[d] = ptx.b64();
            ptx.op("add.s64 %s, %s, %s", staged[d], sharedBase, param.apply("dim" + d + "_staged"));
            int dimension = d;
            if (dim.clones() == null) {
                ptx.strided(tid, ntid, param.apply("dim" + d + "_range"), at -> {
                    String c = ptx.b32();
                    ptx.op("ld.global.nc.b32 %s, [%s]", c, ptx.address(param.apply("dim" + dimension), at, 4));
                    ptx.op("st.shared.b32 [%s], %s", ptx.address(staged[dimension], at, 4), c);
                });
            } else {
                ptx.strided(tid, ntid, param.apply("dim" + d + "_entries"), at -> stageCopy(dimension, at));
            }
        }
        if (any) {
            ptx.op("bar.sync 0");
        }
    }

    /**
     * Entry {@code at} of a cloned dimension's table: the contribution of the code whose copy the
     * clone map puts there; -1 (no row) for a hole or the NULL code, which no probe reaches.
     */
    private void stageCopy(int dim, String at) {
        String code32 = ptx.b32();
        ptx.op("ld.global.nc.s32 %s, [%s]", code32, ptx.address(param.apply("dim" + dim + "_map"), at, 4));
        String code = ptx.b64();
        ptx.op("cvt.s64.s32 %s, %s", code, code32);
        String valid = ptx.pred();
        ptx.op("setp.lt.u64 %s, %s, %s", valid, code, param.apply("dim" + dim + "_range"));
        String c = ptx.b32();
        ptx.op("mov.b32 %s, -1", c);
        ptx.opIf(valid, "ld.global.nc.b32 %s, [%s]", c, ptx.address(param.apply("dim" + dim), code, 4));
        ptx.op("st.shared.b32 [%s], %s", ptx.address(staged[dim], at, 4), c);
    }

    /** Starts a tile: rows below {@code rows} are alive, with group id 0. */
    void startTile(String rows) {
        for (int i = 0; i < row.length; i++) {
            alive[i] = ptx.pred();
            ptx.op("setp.lt.s64 %s, %s, %s", alive[i], row[i], rows);
            group[i] = ptx.b64();
            ptx.op("mov.b64 %s, 0", group[i]);
        }
    }

    void emit() {
        int[] code = input.code();
        for (int pc = 0; pc < code.length; pc += 4) {
            Opcode op = Opcode.values()[code[pc] & 0xff];
            int imm = code[pc] >> 8;
            int d = code[pc + 1];
            int a = code[pc + 2];
            int b = code[pc + 3];
            for (int i = 0; i < row.length; i++) {
                instruction(op, imm, d, a, b, i);
            }
            if (op == Opcode.PROBE || op == Opcode.PROBE_HASH || op == Opcode.FILTER || op == Opcode.GROUP_KEY) {
                skipDeadWarp();
            }
        }
    }

    /** The predicate of a row counting for an aggregate slot: alive, its filter TRUE, its argument not NULL. */
    String counts(StarPipeline.Slot slot, int i) {
        String c = alive[i];
        if (slot.filter() >= 0) {
            c = ptx.and(c, isTrue(slot.filter(), i));
        }
        if (slot.register() >= 0 && nulls[slot.register()][i] != null) {
            c = ptx.and(c, Ptx.not(nulls[slot.register()][i]));
        }
        return c;
    }

    private void instruction(Opcode op, int imm, int d, int a, int b, int i) {
        switch (op) {
            case LOAD_FACT -> load(d, i, "fact" + a, input.fact().get(a), row[i], alive[i]);
            case LOAD_DIM -> load(d, i, "dimcol" + a, input.dimColumns().get(a), value[b][i], alive[i]);
            case LOAD_KEY -> loadKey(d, a, b, i);
            case CONST -> value[d][i] = constant[a];
            case CONST_NULL -> {
                value[d][i] = zero;
                nulls[d][i] = Ptx.TRUE;
            }
            case PROBE -> probe(a, b, i);
            case PROBE_HASH -> probeHash(d, a, b, i);
            case FILTER -> alive[i] = ptx.and(alive[i], isTrue(a, i));
            case GROUP_KEY -> groupKey(a, b, i);
            case ADD -> addOrSubtract(d, a, b, i, true);
            case SUB -> addOrSubtract(d, a, b, i, false);
            case MUL -> {
                String n = nullOf(a, b, i);
                set(d, i, checkedMultiply(value[a][i], value[b][i], i, n), n);
            }
            case NEG -> {
                String r = ptx.b64();
                ptx.op("neg.s64 %s, %s", r, value[a][i]);
                set(d, i, r, nulls[a][i]);
            }
            case SCALE_UP -> set(d, i, checkedMultiply(value[a][i], Long.toString(PowerOfTenDivision.pow10(imm)), i,
                    nulls[a][i]), nulls[a][i]);
            case SCALE_DOWN -> set(d, i, divideRound(value[a][i], imm), nulls[a][i]);
            case MUL_DOWN -> {
                String n = nullOf(a, b, i);
                set(d, i, divideRound(checkedMultiply(value[a][i], value[b][i], i, n), imm), n);
            }
            case FADD -> floating(d, a, b, i, "add.rn.f64");
            case FSUB -> floating(d, a, b, i, "sub.rn.f64");
            case FMUL -> floating(d, a, b, i, "mul.rn.f64");
            case FDIV -> {
                String n = nullOf(a, b, i);
                String divisor = asDouble(value[b][i]);
                String isZero = ptx.pred();
                ptx.op("setp.eq.f64 %s, %s, 0d0000000000000000", isZero, divisor);
                fail(isZero, DIVIDE_BY_ZERO, i, n);
                floating(d, a, b, i, "div.rn.f64");
            }
            case FNEG -> {
                String f = ptx.f64();
                ptx.op("neg.f64 %s, %s", f, asDouble(value[a][i]));
                set(d, i, fromDouble(f), nulls[a][i]);
            }
            case I2F -> {
                String f = ptx.f64();
                ptx.op("cvt.rn.f64.s64 %s, %s", f, value[a][i]);
                if (imm > 0) {
                    ptx.op("div.rn.f64 %s, %s, %s", f, f, doubleImmediate(PowerOfTenDivision.pow10(imm)));
                }
                set(d, i, fromDouble(f), nulls[a][i]);
            }
            case F2I -> set(d, i, roundToLong(value[a][i], imm, i, nulls[a][i]), nulls[a][i]);
            case EQ, NE, LT, LE, GT, GE -> compare(d, a, b, i,
                    "setp." + op.name().toLowerCase() + ".s64 %s, %s, %s", value[a][i], value[b][i]);
            case FEQ, FNE, FLT, FLE, FGT, FGE -> compare(d, a, b, i,
                    "setp." + floatComparison(op) + ".f64 %s, %s, %s", asDouble(value[a][i]), asDouble(value[b][i]));
            case AND, OR -> logic(op == Opcode.AND, d, a, b, i);
            case NOT -> bool(d, i, ptx.and(Ptx.not(truthOf(a, i)), notNull(a, i)), nulls[a][i]);
            case IS_NULL -> bool(d, i, nullOr(a, i, Ptx.FALSE), null);
            case IS_NOT_NULL -> bool(d, i, notNull(a, i), null);
            case IS_TRUE -> bool(d, i, isTrue(a, i), null);
            case IS_FALSE -> bool(d, i, isFalse(a, i), null);
            case IS_NOT_TRUE -> bool(d, i, Ptx.not(isTrue(a, i)), null);
            case IS_NOT_FALSE -> bool(d, i, Ptx.not(isFalse(a, i)), null);
            case SELECT -> select(d, isTrue(imm, i), a, b, i);
            case CHECK_INT -> {
                String low = ptx.b32();
                String back = ptx.b64();
                String outside = ptx.pred();
                ptx.op("cvt.u32.u64 %s, %s", low, value[a][i]);
                ptx.op("cvt.s64.s32 %s, %s", back, low);
                ptx.op("setp.ne.s64 %s, %s, %s", outside, back, value[a][i]);
                fail(outside, OVERFLOW, i, nulls[a][i]);
            }
            case COALESCE -> {
                if (nulls[a][i] == null) {
                    value[d][i] = value[a][i];
                } else {
                    select(d, Ptx.not(nulls[a][i]), a, b, i);
                }
            }
        }
    }

    /** Loads a column value at {@code index} where {@code guard} holds; NULL flags too when the column has them. */
    private void load(int d, int i, String name, StarKernelInput.Column column, String index, String guard) {
        String v = ptx.b64();
        ptx.opIf(guard, "ld.global.nc.%s %s, [%s]", loadType(column.width()), v,
                ptx.address(param.apply(name), index, column.width()));
        String n = null;
        if (column.nullable()) {
            String flag = ptx.b64();
            ptx.op("mov.b64 %s, 0", flag);
            ptx.opIf(guard, "ld.global.nc.u8 %s, [%s]", flag, ptx.address(param.apply(name + "_nulls"), index, 1));
            n = ptx.pred();
            ptx.op("setp.ne.u64 %s, %s, 0", n, flag);
        }
        set(d, i, v, n);
    }

    /**
     * The key a foreign key's code (register {@code code}) points at: the referenced table's key
     * column at the code, NULL where the code is. A code past the referenced table's rows (it
     * shrank since the codes were assigned) gives the pipeline back.
     */
    private void loadKey(int d, int key, int code, int i) {
        String inRange = ptx.pred();
        ptx.op("setp.lt.u64 %s, %s, %s", inRange, value[code][i], param.apply("key" + key + "_rows"));
        fail(Ptx.not(inRange), BAD_CODE, i, nulls[code][i]);
        String guard = ptx.and(ptx.and(alive[i], inRange), notNull(code, i));
        StarKernelInput.Key k = input.keys().get(key);
        load(d, i, "key" + key, new StarKernelInput.Column(k.values(), 0, k.width()), value[code][i], guard);
        set(d, i, value[d][i], nulls[code][i]);
    }

    private static String loadType(int width) {
        return switch (width) {
            case 1 -> "s8";
            case 4 -> "s32";
            default -> "b64";
        };
    }

    /** A live row goes on only where dimension {@code dim} has a row for its key; the row's contribution joins its group id. */
    private void probe(int key, int dim, int i) {
        if (nulls[key][i] != null) {
            alive[i] = ptx.and(alive[i], Ptx.not(nulls[key][i]));
        }
        String inRange = ptx.pred();
        ptx.op("setp.lt.u64 %s, %s, %s", inRange, value[key][i], param.apply("dim" + dim + "_range"));
        fail(Ptx.not(inRange), BAD_CODE, i, null);
        alive[i] = ptx.and(alive[i], inRange);
        String index = value[key][i];
        if (input.dimensions().get(dim).clones() != null) {
            // the row's copy of its dimension row, in a bank its warp's other rows leave free
            String slot32 = ptx.b32();
            ptx.op("mov.b32 %s, 0", slot32);
            ptx.opIf(alive[i], "ld.global.nc.u32 %s, [%s]", slot32, ptx.address(param.apply("dim" + dim + "_slots"), row[i], 4));
            index = ptx.b64();
            ptx.op("cvt.u64.u32 %s, %s", index, slot32);
        }
        contribute(dim, index, i);
    }

    /** A live row with dimension row {@code index} goes on if that row passed the dimension's filters, adding its part of the group id. */
    private void contribute(int dim, String index, int i) {
        String contribution = ptx.b32();
        ptx.op("mov.b32 %s, -1", contribution);
        if (staged[dim] != null) {
            ptx.opIf(alive[i], "ld.shared.s32 %s, [%s]", contribution, ptx.address(staged[dim], index, 4));
        } else {
            ptx.opIf(alive[i], "ld.global.nc.s32 %s, [%s]", contribution, ptx.address(param.apply("dim" + dim), index, 4));
        }
        String found = ptx.pred();
        ptx.op("setp.ge.s32 %s, %s, 0", found, contribution);
        alive[i] = ptx.and(alive[i], found);
        String wide = ptx.b64();
        ptx.op("cvt.s64.s32 %s, %s", wide, contribution);
        ptx.op("add.s64 %s, %s, %s", group[i], group[i], wide);
    }

    /**
     * A live row goes on only where dimension {@code dim}'s hash table holds its key: linear
     * probing from the key's home slot until the key or an empty slot. {@code d} gets the found
     * row's index, which the dimension's contribution and columns are indexed by.
     */
    private void probeHash(int d, int key, int dim, int i) {
        String searching = nulls[key][i] == null ? alive[i] : ptx.and(alive[i], Ptx.not(nulls[key][i]));
        if (input.dimensions().get(dim).hash().matched()) {
            lookUpMatch(d, dim, searching, i);
            return;
        }
        String found = ptx.pred();
        String index = ptx.b64();
        String slot = ptx.b64();
        String slotKey = ptx.b64();
        String slotRow = ptx.b64();
        String top = ptx.label("probe");
        String done = ptx.label("probed");
        ptx.op("mov.pred %s, %s", found, Ptx.FALSE);
        ptx.op("mov.b64 %s, 0", index);
        ptx.opIf(Ptx.not(searching), "bra %s", done);
        ptx.op("mul.lo.u64 %s, %s, 0x%016x", slot, value[key][i], DimensionHashTable.MULTIPLIER);
        ptx.op("shr.u64 %s, %s, %s", slot, slot, hashShift[dim]);
        ptx.place(top);
        ptx.op("ld.global.nc.v2.b64 {%s, %s}, [%s]", slotKey, slotRow, slotAddress(dim, slot));
        String empty = ptx.pred();
        ptx.op("setp.lt.s64 %s, %s, 0", empty, slotRow);
        ptx.op("@%s bra %s", empty, done);
        String hit = ptx.pred();
        ptx.op("setp.eq.s64 %s, %s, %s", hit, slotKey, value[key][i]);
        ptx.opIf(hit, "mov.b64 %s, %s", index, slotRow);
        ptx.opIf(hit, "mov.pred %s, %s", found, Ptx.TRUE);
        ptx.op("@%s bra %s", hit, done);
        ptx.op("add.s64 %s, %s, 1", slot, slot);
        ptx.op("and.b64 %s, %s, %s", slot, slot, hashMask[dim]);
        ptx.op("bra %s", top);
        ptx.place(done);
        alive[i] = ptx.and(searching, found);
        contribute(dim, index, i);
        value[d][i] = index;
    }

    /** As probeHash, the row's build row read from what the partitioned join left at the row (-1: none). */
    private void lookUpMatch(int d, int dim, String searching, int i) {
        String match = ptx.b32();
        ptx.op("mov.b32 %s, -1", match);
        ptx.opIf(searching, "ld.global.nc.s32 %s, [%s]", match, ptx.address(param.apply("dim" + dim + "_matches"), row[i], 4));
        String found = ptx.pred();
        ptx.op("setp.ge.s32 %s, %s, 0", found, match);
        String index = ptx.b64();
        ptx.op("cvt.s64.s32 %s, %s", index, match);
        alive[i] = ptx.and(searching, found);
        contribute(dim, index, i);
        value[d][i] = index;
    }

    /** Where hash table slot {@code slot} of dimension {@code dim} is: in device memory, or for a hybrid table past its split, on the host. */
    private String slotAddress(int dim, String slot) {
        String table = param.apply("dim" + dim + "_table");
        if (!input.dimensions().get(dim).hash().hybrid()) {
            return ptx.address(table, slot, 16);
        }
        String split = param.apply("dim" + dim + "_split");
        String onDevice = ptx.pred();
        ptx.op("setp.lt.u64 %s, %s, %s", onDevice, slot, split);
        String past = ptx.b64();
        ptx.op("sub.s64 %s, %s, %s", past, slot, split);
        String index = ptx.b64();
        ptx.op("selp.b64 %s, %s, %s, %s", index, slot, past, onDevice);
        String base = ptx.b64();
        ptx.op("selp.b64 %s, %s, %s, %s", base, table, param.apply("dim" + dim + "_table_host"), onDevice);
        return ptx.address(base, index, 16);
    }

    /** Adds a fact column key's digit (value - minimum, or the range for NULL) times its multiplier to the group id. */
    private void groupKey(int key, int at, int i) {
        String digit = ptx.b64();
        ptx.op("sub.s64 %s, %s, %s", digit, value[key][i], constant[at]);
        if (nulls[key][i] != null) {
            ptx.opIf(nulls[key][i], "mov.b64 %s, %s", digit, constant[at + 1]);
        }
        String outside = ptx.pred();
        ptx.op("setp.gt.u64 %s, %s, %s", outside, digit, constant[at + 1]);
        fail(outside, BAD_CODE, i, null);
        alive[i] = ptx.and(alive[i], Ptx.not(outside));
        ptx.op("mad.lo.s64 %s, %s, %s, %s", group[i], digit, constant[at + 2], group[i]);
    }

    private void skipDeadWarp() {
        String any = Ptx.FALSE;
        for (String a : alive) {
            any = ptx.or(any, a);
        }
        String warp = ptx.pred();
        ptx.op("vote.sync.any.pred %s, %s, 0xffffffff", warp, ptx.plain(any));
        ptx.op("@!%s bra %s", warp, skip);
    }

    /** Signed 64-bit ADD or SUB with the overflow test of its operand and result signs. */
    private void addOrSubtract(int d, int a, int b, int i, boolean add) {
        String n = nullOf(a, b, i);
        String r = ptx.b64();
        String x = ptx.b64();
        String y = ptx.b64();
        ptx.op("%s.s64 %s, %s, %s", add ? "add" : "sub", r, value[a][i], value[b][i]);
        // overflow: a + b has the sign of neither operand; a - b differs in sign from a where a and b differ
        ptx.op("xor.b64 %s, %s, %s", x, add ? value[b][i] : value[a][i], r);
        ptx.op("xor.b64 %s, %s, %s", y, value[a][i], add ? r : value[b][i]);
        ptx.op("and.b64 %s, %s, %s", x, x, y);
        String overflow = ptx.pred();
        ptx.op("setp.lt.s64 %s, %s, 0", overflow, x);
        fail(overflow, OVERFLOW, i, n);
        set(d, i, r, n);
    }

    private String checkedMultiply(String a, String b, int i, String resultNull) {
        String low = ptx.b64();
        String high = ptx.b64();
        String sign = ptx.b64();
        String overflow = ptx.pred();
        ptx.op("mul.lo.s64 %s, %s, %s", low, a, b);
        ptx.op("mul.hi.s64 %s, %s, %s", high, a, b);
        ptx.op("shr.s64 %s, %s, 63", sign, low);
        ptx.op("setp.ne.s64 %s, %s, %s", overflow, high, sign);
        fail(overflow, OVERFLOW, i, resultNull);
        return low;
    }

    /** v / 10^k rounded half away from zero, as the CPU backend rescales decimals. */
    private String divideRound(String v, int k) {
        PowerOfTenDivision div = PowerOfTenDivision.of(k);
        String n = ptx.b64();
        String t = ptx.b64();
        String q = ptx.b64();
        String rem = ptx.b64();
        String twice = ptx.b64();
        ptx.op("abs.s64 %s, %s", n, v);
        ptx.op("mul.hi.u64 %s, %s, 0x%016x", t, n, div.magic());
        ptx.op("sub.u64 %s, %s, %s", q, n, t);
        ptx.op("shr.u64 %s, %s, 1", q, q);
        ptx.op("add.u64 %s, %s, %s", q, q, t);
        ptx.op("shr.u64 %s, %s, %d", q, q, div.shift() - 1);
        ptx.op("mul.lo.u64 %s, %s, %d", rem, q, div.divisor());
        ptx.op("sub.u64 %s, %s, %s", rem, n, rem);
        // rem >= divisor - rem, without a negative: rem < divisor <= 10^18, so 2 rem fits
        ptx.op("shl.b64 %s, %s, 1", twice, rem);
        String up = ptx.pred();
        ptx.op("setp.ge.u64 %s, %s, %d", up, twice, div.divisor());
        ptx.opIf(up, "add.u64 %s, %s, 1", q, q);
        String negative = ptx.pred();
        ptx.op("setp.lt.s64 %s, %s, 0", negative, v);
        ptx.opIf(negative, "neg.s64 %s, %s", q, q);
        return q;
    }

    /** x * 10^k rounded half away from zero to a long; NaN or beyond the 64-bit range gives the pipeline back. */
    private String roundToLong(String bits, int k, int i, String n) {
        String x = ptx.f64();
        ptx.op("mul.rn.f64 %s, %s, %s", x, asDouble(bits), doubleImmediate(PowerOfTenDivision.pow10(k)));
        String magnitude = ptx.f64();
        ptx.op("abs.f64 %s, %s", magnitude, x);
        String outside = ptx.pred();
        ptx.op("setp.geu.f64 %s, %s, %s", outside, magnitude, doubleImmediate(9.2e18));
        fail(outside, OVERFLOW, i, n);
        String whole = ptx.f64();
        String fraction = ptx.f64();
        ptx.op("cvt.rzi.f64.f64 %s, %s", whole, magnitude);
        ptx.op("sub.rn.f64 %s, %s, %s", fraction, magnitude, whole);
        String up = ptx.pred();
        ptx.op("setp.ge.f64 %s, %s, %s", up, fraction, doubleImmediate(0.5));
        ptx.opIf(up, "add.rn.f64 %s, %s, %s", whole, whole, doubleImmediate(1.0));
        String r = ptx.b64();
        ptx.op("cvt.rzi.s64.f64 %s, %s", r, whole);
        String negative = ptx.pred();
        ptx.op("setp.lt.f64 %s, %s, %s", negative, x, doubleImmediate(0.0));
        ptx.opIf(negative, "neg.s64 %s, %s", r, r);
        return r;
    }

    private void floating(int d, int a, int b, int i, String instruction) {
        String f = ptx.f64();
        ptx.op("%s %s, %s, %s", instruction, f, asDouble(value[a][i]), asDouble(value[b][i]));
        set(d, i, fromDouble(f), nullOf(a, b, i));
    }

    private static String floatComparison(Opcode op) {
        // C's != is true for NaN operands: PTX's unordered-or-not-equal
        return op == Opcode.FNE ? "neu" : op.name().substring(1).toLowerCase();
    }

    private void compare(int d, int a, int b, int i, String format, String x, String y) {
        String p = ptx.pred();
        ptx.op(format, p, x, y);
        String n = nullOf(a, b, i);
        bool(d, i, n == null ? p : ptx.and(p, Ptx.not(n)), n);
    }

    /** Three-valued AND / OR: FALSE (AND) or TRUE (OR) decides even against NULL. */
    private void logic(boolean and, int d, int a, int b, int i) {
        String n = nullOf(a, b, i);
        if (n == null) {
            bool(d, i, and ? ptx.and(truthOf(a, i), truthOf(b, i)) : ptx.or(truthOf(a, i), truthOf(b, i)), null);
            return;
        }
        String decided = and ? ptx.or(isFalse(a, i), isFalse(b, i)) : ptx.or(isTrue(a, i), isTrue(b, i));
        String resultNull = ptx.and(Ptx.not(decided), n);
        String t = and ? ptx.and(Ptx.not(decided), Ptx.not(resultNull)) : decided;
        bool(d, i, t, resultNull);
    }

    private void select(int d, String condition, int a, int b, int i) {
        String v = ptx.b64();
        ptx.op("selp.b64 %s, %s, %s, %s", v, value[a][i], value[b][i], ptx.plain(condition));
        String n = null;
        if (nulls[a][i] != null || nulls[b][i] != null) {
            n = ptx.or(ptx.and(condition, nullOr(a, i, Ptx.FALSE)), ptx.and(Ptx.not(condition), nullOr(b, i, Ptx.FALSE)));
        }
        set(d, i, v, n);
    }

    /** A boolean result: its truth predicate (already FALSE where NULL) and its 0/1 value. */
    private void bool(int d, int i, String t, String n) {
        t = ptx.plain(t);
        String v = ptx.b64();
        ptx.op("selp.b64 %s, 1, 0, %s", v, t);
        value[d][i] = v;
        nulls[d][i] = n;
        truth[d][i] = t;
    }

    private void set(int d, int i, String v, String n) {
        if (n != null) {
            ptx.opIf(n, "mov.b64 %s, 0", v);
        }
        value[d][i] = v;
        nulls[d][i] = n;
    }

    /** Marks the thread's status with {@code why} where {@code condition} holds for a live row whose result is not NULL. */
    private void fail(String condition, int why, int i, String resultNull) {
        String g = ptx.and(condition, alive[i]);
        if (resultNull != null) {
            g = ptx.and(g, Ptx.not(resultNull));
        }
        ptx.opIf(g, "or.b32 %s, %s, %d", status, status, why);
    }

    private String truthOf(int r, int i) {
        if (truth[r][i] == null) {
            String p = ptx.pred();
            ptx.op("setp.ne.s64 %s, %s, 0", p, value[r][i]);
            truth[r][i] = p;
        }
        return truth[r][i];
    }

    private String isTrue(int r, int i) {
        return ptx.and(truthOf(r, i), notNull(r, i));
    }

    private String isFalse(int r, int i) {
        return ptx.and(Ptx.not(truthOf(r, i)), notNull(r, i));
    }

    private String notNull(int r, int i) {
        return nulls[r][i] == null ? Ptx.TRUE : Ptx.not(nulls[r][i]);
    }

    private String nullOr(int r, int i, String otherwise) {
        return nulls[r][i] == null ? otherwise : nulls[r][i];
    }

    private String nullOf(int a, int b, int i) {
        if (nulls[a][i] == null) {
            return nulls[b][i];
        }
        return nulls[b][i] == null ? nulls[a][i] : ptx.or(nulls[a][i], nulls[b][i]);
    }

    private String asDouble(String bits) {
        String f = ptx.f64();
        ptx.op("mov.b64 %s, %s", f, bits);
        return f;
    }

    private String fromDouble(String f) {
        String v = ptx.b64();
        ptx.op("mov.b64 %s, %s", v, f);
        return v;
    }

    static String doubleImmediate(double v) {
        return String.format("0d%016X", Double.doubleToRawLongBits(v));
    }
}

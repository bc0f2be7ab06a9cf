package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.eval.Decimals;

/**
 * Translates a star pipeline's program into CUDA C for a tile of rows: each thread runs every
 * instruction for its {@code items} rows in turn, without branches, so the loads of its rows are
 * in flight together. A row that fails a filter or probe is dead: its later loads are guarded off
 * and it folds nothing; when no row of the warp is left, the warp leaves the tile. The semantics
 * of each instruction are the functions of {@code row.cuh} and {@code probe.cuh}; a value is a
 * 64-bit integer (a double as its bits), with a NULL flag only where it can be NULL.
 */
final class RowProgramSource {
    private final CudaWriter out;
    private final StarKernelInput input;
    final String[] alive;
    final String[] row;
    final String[] group;
    final String[][] value;
    final String[][] nulls;
    private final String[][] truth;
    /** Per staged dimension: its contributions in shared memory. */
    private final String[] staged;

    /** {@code row}: each item's row variable, already set. */
    RowProgramSource(CudaWriter out, StarKernelInput input, String[] row) {
        this.out = out;
        this.input = input;
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
        staged = new String[input.dimensions().size()];
    }

    /**
     * Copies the staged dimensions' contributions into the block's shared memory {@code shared}
     * (every thread a share), then waits for the whole block; run once, before the first tile.
     */
    void stageDimensions(String shared) {
        boolean any = false;
        for (int d = 0; d < staged.length; d++) {
            StarKernelInput.Dimension dim = input.dimensions().get(d);
            if (!dim.isStaged()) {
                continue;
            }
            any = true;
            staged[d] = out.let("int32_t*", "(int32_t*)(" + shared + " + dim" + d + "_staged)");
            if (dim.clones() == null) {
                out.line("stageContributions(%s, dim%d, dim%d_range);", staged[d], d, d);
            } else {
                out.line("stageClones(%s, dim%d, dim%d_map, dim%d_entries, dim%d_range);", staged[d], d, d, d, d);
            }
        }
        if (any) {
            out.line("__syncthreads();");
        }
    }

    /** Starts a tile: rows below {@code rows} are alive, with group id 0. */
    void startTile() {
        for (int i = 0; i < row.length; i++) {
            alive[i] = out.let("bool", row[i] + " < rows");
            group[i] = out.let("long long", "0");
        }
    }

    /** The program for every item; a warp with no live row left leaves the tile ({@code break}). */
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
                leaveDeadWarp();
            }
        }
    }

    /** Whether a row counts for an aggregate slot: alive, its filter TRUE, its argument not NULL. */
    String counts(StarPipeline.Slot slot, int i) {
        String c = alive[i];
        if (slot.filter() >= 0) {
            c = out.and(c, isTrue(slot.filter(), i));
        }
        if (slot.register() >= 0 && nulls[slot.register()][i] != null) {
            c = out.and(c, CudaWriter.not(nulls[slot.register()][i]));
        }
        return c;
    }

    private void instruction(Opcode op, int imm, int d, int a, int b, int i) {
        switch (op) {
            case LOAD_FACT -> load(d, i, "fact" + a, input.fact().get(a).nullable(), row[i], alive[i]);
            case LOAD_ROW -> value[d][i] = row[i];
            case LOAD_DIM -> load(d, i, "dimcol" + a, input.dimColumns().get(a).nullable(), value[b][i], alive[i]);
            case LOAD_KEY -> loadKey(d, a, b, i);
            case LOAD_ANSWER -> loadAnswer(d, a, b, imm == 1, i);
            case CONST -> value[d][i] = "c" + a;
            case CONST_NULL -> {
                value[d][i] = "0ll";
                nulls[d][i] = CudaWriter.TRUE;
            }
            case PROBE -> {
                switch (ProbeMode.values()[imm]) {
                    case MATCH -> probe(a, b, i);
                    case ANTI -> probeAnti(a, b, i);
                    case OUTER -> probeOuter(d, a, b, i);
                }
            }
            case PROBE_HASH -> {
                switch (ProbeMode.values()[imm]) {
                    case MATCH -> probeHash(d, a, b, i);
                    case ANTI -> probeHashAnti(a, b, i);
                    case OUTER -> probeHashOuter(d, a, b, i);
                }
            }
            case FILTER -> alive[i] = out.and(alive[i], isTrue(a, i));
            case GROUP_KEY -> groupKey(a, b, i);
            case ADD -> checked(d, a, b, i, "addChecked");
            case SUB -> checked(d, a, b, i, "subtractChecked");
            case MUL -> checked(d, a, b, i, "multiplyChecked");
            case NEG -> set(d, i, out.let("long long", String.format("negateChecked(%s, %s, status)", value[a][i],
                    counts(nulls[a][i], i))), nulls[a][i]);
            case ABS -> set(d, i, out.let("long long", String.format("absChecked(%s, %s, status)", value[a][i],
                    counts(nulls[a][i], i))), nulls[a][i]);
            case SCALE_UP -> set(d, i, out.let("long long", String.format("multiplyChecked(%s, %dll, %s, status)",
                    value[a][i], Decimals.pow10(imm), counts(nulls[a][i], i))), nulls[a][i]);
            case SCALE_DOWN -> set(d, i, out.let("long long",
                    String.format("divideRound(%s, %dull)", value[a][i], Decimals.pow10(imm))), nulls[a][i]);
            case MUL_DOWN -> {
                String n = nullOf(a, b, i);
                set(d, i, out.let("long long", String.format("divideRound(multiplyChecked(%s, %s, %s, status), %dull)",
                        value[a][i], value[b][i], counts(n, i), Decimals.pow10(imm))), n);
            }
            case DIV -> {
                String n = nullOf(a, b, i);
                set(d, i, out.let("long long", String.format("divideRounded(%s, %s, %dll, %s, status)",
                        value[a][i], value[b][i], Decimals.pow10(imm), counts(n, i))), n);
            }
            case IDIV -> checked(d, a, b, i, "divideTruncated");
            case MOD -> checked(d, a, b, i, "remainderChecked");
            case FADD -> doubles(d, a, b, i, "__dadd_rn");
            case FSUB -> doubles(d, a, b, i, "__dsub_rn");
            case FMUL -> doubles(d, a, b, i, "__dmul_rn");
            case FDIV -> {
                String n = nullOf(a, b, i);
                set(d, i, out.let("long long", String.format("divideDoubles(%s, %s, %s, status)", value[a][i], value[b][i],
                        counts(n, i))), n);
            }
            case FNEG -> set(d, i, out.let("long long", "asBits(-asDouble(" + value[a][i] + "))"), nulls[a][i]);
            case FABS -> set(d, i, out.let("long long", "asBits(fabs(asDouble(" + value[a][i] + ")))"), nulls[a][i]);
            case EXTRACT -> set(d, i, out.let("long long", extractFunction(imm) + "(" + value[a][i] + ")"), nulls[a][i]);
            case ADD_MONTHS -> {
                String n = nullOf(a, b, i);
                set(d, i, out.let("long long", String.format("addMonths(%s, %s)", value[a][i], value[b][i])), n);
            }
            case I2F -> set(d, i, out.let("long long", String.format("integerToDouble(%s, %s)", value[a][i],
                    doubleLiteral(Decimals.pow10(imm)))), nulls[a][i]);
            case F2I -> set(d, i, out.let("long long", String.format("roundToLong(%s, %s, %s, status)", value[a][i],
                    doubleLiteral(Decimals.pow10(imm)), counts(nulls[a][i], i))), nulls[a][i]);
            case EQ, NE, LT, LE, GT, GE -> compare(d, a, b, i, value[a][i] + comparison(op) + value[b][i]);
            case FEQ, FNE, FLT, FLE, FGT, FGE -> compare(d, a, b, i,
                    "asDouble(" + value[a][i] + ")" + comparison(op) + "asDouble(" + value[b][i] + ")");
            case AND, OR -> logic(op == Opcode.AND, d, a, b, i);
            case NOT -> bool(d, i, out.and(CudaWriter.not(truthOf(a, i)), notNull(a, i)), nulls[a][i]);
            case IS_NULL -> bool(d, i, nullOr(a, i, CudaWriter.FALSE), null);
            case IS_NOT_NULL -> bool(d, i, notNull(a, i), null);
            case IS_TRUE -> bool(d, i, isTrue(a, i), null);
            case IS_FALSE -> bool(d, i, isFalse(a, i), null);
            case IS_NOT_TRUE -> bool(d, i, CudaWriter.not(isTrue(a, i)), null);
            case IS_NOT_FALSE -> bool(d, i, CudaWriter.not(isFalse(a, i)), null);
            case SELECT -> select(d, isTrue(imm, i), a, b, i);
            case CHECK_INT -> out.line("checkInt(%s, %s, status);", value[a][i], counts(nulls[a][i], i));
            case CHECK_DIGITS -> out.line("checkDigits(%s, %dll, %s, status);", value[a][i], Decimals.pow10(imm),
                    counts(nulls[a][i], i));
            case COALESCE -> {
                if (nulls[a][i] == null) {
                    value[d][i] = value[a][i];
                } else {
                    select(d, CudaWriter.not(nulls[a][i]), a, b, i);
                }
            }
        }
    }

    /** EXTRACT's immediate, the field's distance from EXTRACT_YEAR among Call.Op's, names its function of row.cuh. */
    private static String extractFunction(int imm) {
        return switch (Call.Op.values()[Call.Op.EXTRACT_YEAR.ordinal() + imm]) {
            case EXTRACT_YEAR -> "extractYear";
            case EXTRACT_QUARTER -> "extractQuarter";
            case EXTRACT_MONTH -> "extractMonth";
            case EXTRACT_DAY -> "extractDay";
            default -> throw new IllegalStateException("EXTRACT field " + imm);
        };
    }

    /** Loads column {@code name} at {@code index} where {@code guard} holds; its NULL flag too when it has them. */
    private void load(int d, int i, String name, boolean nullable, String index, String guard) {
        String v = out.let("long long", String.format("loadValue(%s, %s, %s)", name, index, guard));
        String n = nullable ? out.let("bool", String.format("loadNull(%s_nulls, %s, %s)", name, index, guard)) : null;
        set(d, i, v, n);
    }

    /**
     * The key a foreign key's code (register {@code code}) points at: the referenced table's key
     * column at the code, NULL where the code is. A code past the referenced table's rows (it
     * shrank since the codes were assigned) gives the pipeline back.
     */
    private void loadKey(int d, int key, int code, int i) {
        String inRange = out.bool(String.format("(uint64_t)%s < (uint64_t)key%d_rows", value[code][i], key));
        flag(CudaWriter.not(inRange), KernelStatus.BAD_CODE, counts(nulls[code][i], i));
        String guard = out.and(out.and(alive[i], inRange), notNull(code, i));
        String v = out.let("long long", String.format("loadValue(key%d, %s, %s)", key, value[code][i], guard));
        set(d, i, v, nulls[code][i]);
    }

    /**
     * String function {@code answer}'s answer for the code in register {@code code} (the last entry
     * a NULL string's): a predicate's byte (0 FALSE, 1 TRUE, 2 NULL), or ({@code rank}) a group
     * key's rank, 32-bit. A code past the dictionary gives the pipeline back.
     */
    private void loadAnswer(int d, int answer, int code, boolean rank, int i) {
        String index = nulls[code][i] == null ? value[code][i]
                : out.let("long long", String.format("%s ? answer%d_rows - 1 : %s", nulls[code][i], answer, value[code][i]));
        String inRange = out.bool(String.format("(uint64_t)%s < (uint64_t)answer%d_rows", index, answer));
        flag(CudaWriter.not(inRange), KernelStatus.BAD_CODE, alive[i]);
        String entry = out.let("long long", String.format("loadValue(answer%d, %s, %s)", answer, index,
                out.and(alive[i], inRange)));
        if (rank) {
            value[d][i] = entry;
        } else {
            bool(d, i, entry + " == 1", out.bool(entry + " == 2"));
        }
    }

    /** A live row goes on only where dense dimension {@code dim} has a row for its key; that row joins its group id. */
    private void probe(int key, int dim, int i) {
        if (nulls[key][i] != null) {
            alive[i] = out.and(alive[i], CudaWriter.not(nulls[key][i]));
        }
        String inRange = out.bool(String.format("(uint64_t)%s < (uint64_t)dim%d_range", value[key][i], dim));
        flag(CudaWriter.not(inRange), KernelStatus.BAD_CODE, alive[i]);
        alive[i] = out.and(alive[i], inRange);
        String index = value[key][i];
        if (input.dimensions().get(dim).clones() != null) {
            // the row's copy of its dimension row, in a bank its warp's other rows leave free
            index = out.let("long long", String.format("loadValue(dim%d_slots, %s, %s)", dim, row[i], alive[i]));
        }
        contribute(dim, index, i);
    }

    /**
     * An ANTI join's dense probe: a live row goes on only where dense dimension {@code dim} has no
     * row for its key (a NULL key finds none); it adds nothing to the group id.
     */
    private void probeAnti(int key, int dim, int i) {
        String searching = searching(key, i);
        String inRange = out.bool(String.format("(uint64_t)%s < (uint64_t)dim%d_range", value[key][i], dim));
        flag(CudaWriter.not(inRange), KernelStatus.BAD_CODE, searching);
        rejectFound(dim, value[key][i], out.and(searching, inRange), i);
    }

    /**
     * A LEFT join's dense probe: a live row goes on whether or not dense dimension {@code dim} has
     * a row at its code (a NULL code finds none); {@code d} gets that code, else the position of
     * the dimension's last row, past its codes, whose columns are NULL.
     */
    private void probeOuter(int d, int key, int dim, int i) {
        String searching = searching(key, i);
        String inRange = out.bool(String.format("(uint64_t)%s < (uint64_t)(dim%d_range - 1)", value[key][i], dim));
        flag(CudaWriter.not(inRange), KernelStatus.BAD_CODE, searching);
        String found = contribution(dim, value[key][i], out.and(searching, inRange));
        String index = out.let("long long", String.format("%s >= 0 ? %s : dim%d_range - 1", found, value[key][i], dim));
        contribute(dim, index, i);
        value[d][i] = index;
    }

    /** An ANTI join's hashed probe: a live row goes on only where dimension {@code dim}'s table has no row for its key. */
    private void probeHashAnti(int key, int dim, int i) {
        String index = find(key, dim, searching(key, i), i);
        rejectFound(dim, index, out.bool(index + " >= 0"), i);
    }

    /** Whether the row looks its key in register {@code key} up: alive, the key not NULL (which finds no row). */
    private String searching(int key, int i) {
        return nulls[key][i] == null ? alive[i] : out.and(alive[i], CudaWriter.not(nulls[key][i]));
    }

    /** Rejects the row where dimension {@code dim}'s row {@code index}, read where {@code look} holds, passed its filters. */
    private void rejectFound(int dim, String index, String look, int i) {
        String found = out.bool(contribution(dim, index, look) + " >= 0");
        alive[i] = out.and(alive[i], CudaWriter.not(found));
    }

    /** A live row with dimension row {@code index} goes on if that row passed the dimension's filters, adding its part of the group id. */
    private void contribute(int dim, String index, int i) {
        String contribution = contribution(dim, index, alive[i]);
        alive[i] = out.and(alive[i], out.bool(contribution + " >= 0"));
        out.line("%s += %s;", group[i], contribution);
    }

    /** Dimension {@code dim}'s contribution at row {@code index}, read where {@code guard} holds, else -1. */
    private String contribution(int dim, String index, String guard) {
        return staged[dim] != null
                ? out.let("int", String.format("stagedContributionAt(%s, %s, %s)", staged[dim], index, guard))
                : out.let("long long", String.format("contributionAt(dim%d, %s, %s)", dim, index, guard));
    }

    /**
     * A live row goes on only where dimension {@code dim}'s hash table holds its key; {@code d}
     * gets the found row's index, which the dimension's contribution and columns are indexed by.
     */
    private void probeHash(int d, int key, int dim, int i) {
        String searching = searching(key, i);
        String index = find(key, dim, searching, i);
        alive[i] = out.and(searching, out.bool(index + " >= 0"));
        contribute(dim, index, i);
        value[d][i] = index;
    }

    /**
     * A LEFT join's probe: a live row goes on whether or not dimension {@code dim}'s hash table
     * holds its key (a NULL key finds nothing); {@code d} gets the found row's index, else that of
     * the dimension's last row, whose columns are NULL.
     */
    private void probeHashOuter(int d, int key, int dim, int i) {
        String found = find(key, dim, searching(key, i), i);
        String index = out.let("long long", String.format("%s >= 0 ? %s : dim%d_range - 1", found, found, dim));
        contribute(dim, index, i);
        value[d][i] = index;
    }

    /**
     * The index of the row of dimension {@code dim}'s hash table whose key is the value in
     * {@code key}, looked up where {@code searching} holds, else -1. A partitioned join found the
     * rows beforehand: its matches are read at the fact row.
     */
    private String find(int key, int dim, String searching, int i) {
        StarKernelInput.HashTable hash = input.dimensions().get(dim).hash();
        if (hash.matched()) {
            return out.let("long long", String.format("loadInt(dim%d_matches, %s, %s, -1)", dim, row[i], searching));
        }
        if (hash.hybrid()) {
            return out.let("long long", String.format("%s ? findRow(dim%d_table, dim%d_table_host, (uint64_t)dim%d_split, "
                    + "(int)dim%d_shift, %s) : -1", searching, dim, dim, dim, dim, value[key][i]));
        }
        return out.let("long long", String.format("%s ? findRow(dim%d_table, (int)dim%d_shift, %s) : -1", searching, dim,
                dim, value[key][i]));
    }

    /** Adds a fact column key's digit (value - minimum, or the range for NULL) times its multiplier to the group id. */
    private void groupKey(int key, int at, int i) {
        String digit = nulls[key][i] == null
                ? out.let("long long", String.format("%s - c%d", value[key][i], at))
                : out.let("long long", String.format("%s ? c%d : %s - c%d", nulls[key][i], at + 1, value[key][i], at));
        String outside = out.bool(String.format("(uint64_t)%s > (uint64_t)c%d", digit, at + 1));
        flag(outside, KernelStatus.BAD_CODE, alive[i]);
        alive[i] = out.and(alive[i], CudaWriter.not(outside));
        out.line("%s += %s * c%d;", group[i], digit, at + 2);
    }

    private void leaveDeadWarp() {
        String any = CudaWriter.FALSE;
        for (String a : alive) {
            any = any.equals(CudaWriter.FALSE) ? a : any + " || " + a;
        }
        out.line("if (!__any_sync(FULL_WARP, %s)) break;", any);
    }

    /** A checked 64-bit ADD, SUB, MUL, integer division or MOD ({@code function} of row.cuh). */
    private void checked(int d, int a, int b, int i, String function) {
        String n = nullOf(a, b, i);
        set(d, i, out.let("long long", String.format("%s(%s, %s, %s, status)", function, value[a][i], value[b][i],
                counts(n, i))), n);
    }

    private void doubles(int d, int a, int b, int i, String function) {
        set(d, i, out.let("long long", String.format("asBits(%s(asDouble(%s), asDouble(%s)))", function, value[a][i],
                value[b][i])), nullOf(a, b, i));
    }

    private static String comparison(Opcode op) {
        // C's != is true for NaN operands, as the CPU's
        return switch (op) {
            case EQ, FEQ -> " == ";
            case NE, FNE -> " != ";
            case LT, FLT -> " < ";
            case LE, FLE -> " <= ";
            case GT, FGT -> " > ";
            default -> " >= ";
        };
    }

    private void compare(int d, int a, int b, int i, String test) {
        String p = out.bool(test);
        String n = nullOf(a, b, i);
        bool(d, i, n == null ? p : out.and(p, CudaWriter.not(n)), n);
    }

    /** Three-valued AND / OR: FALSE (AND) or TRUE (OR) decides even against NULL. */
    private void logic(boolean and, int d, int a, int b, int i) {
        String n = nullOf(a, b, i);
        if (n == null) {
            bool(d, i, and ? out.and(truthOf(a, i), truthOf(b, i)) : out.or(truthOf(a, i), truthOf(b, i)), null);
            return;
        }
        String decided = and ? out.or(isFalse(a, i), isFalse(b, i)) : out.or(isTrue(a, i), isTrue(b, i));
        String resultNull = out.and(CudaWriter.not(decided), n);
        String t = and ? out.and(CudaWriter.not(decided), CudaWriter.not(resultNull)) : decided;
        bool(d, i, t, resultNull);
    }

    private void select(int d, String condition, int a, int b, int i) {
        String v = out.let("long long", String.format("%s ? %s : %s", condition, value[a][i], value[b][i]));
        String n = null;
        if (nulls[a][i] != null || nulls[b][i] != null) {
            n = out.or(out.and(condition, nullOr(a, i, CudaWriter.FALSE)),
                    out.and(CudaWriter.not(condition), nullOr(b, i, CudaWriter.FALSE)));
        }
        set(d, i, v, n);
    }

    /** A boolean result: its truth (already FALSE where NULL) and its 0/1 value. */
    private void bool(int d, int i, String t, String n) {
        t = out.bool(t);
        value[d][i] = t.equals(CudaWriter.TRUE) ? "1ll" : t.equals(CudaWriter.FALSE) ? "0ll" : out.let("long long", t + " ? 1 : 0");
        nulls[d][i] = n;
        truth[d][i] = t;
    }

    /** A result with NULL flag {@code n} (null: never NULL); a NULL's value is 0. */
    private void set(int d, int i, String v, String n) {
        value[d][i] = n == null ? v : n.equals(CudaWriter.TRUE) ? "0ll" : out.let("long long", n + " ? 0 : " + v);
        nulls[d][i] = n;
    }

    /** Sets {@code status} where {@code condition} holds for a row that {@code counts}. */
    private void flag(String condition, KernelStatus why, String counts) {
        String c = out.and(condition, counts);
        out.where(c, "status |= %s;", why.macro());
    }

    /** Alive, with a result whose NULL flag is {@code resultNull} not NULL: where a failure matters. */
    private String counts(String resultNull, int i) {
        return resultNull == null ? alive[i] : out.and(alive[i], CudaWriter.not(resultNull));
    }

    private String truthOf(int r, int i) {
        if (truth[r][i] == null) {
            truth[r][i] = out.bool(value[r][i] + " != 0");
        }
        return truth[r][i];
    }

    private String isTrue(int r, int i) {
        return out.and(truthOf(r, i), notNull(r, i));
    }

    private String isFalse(int r, int i) {
        return out.and(CudaWriter.not(truthOf(r, i)), notNull(r, i));
    }

    private String notNull(int r, int i) {
        return nulls[r][i] == null ? CudaWriter.TRUE : CudaWriter.not(nulls[r][i]);
    }

    private String nullOr(int r, int i, String otherwise) {
        return nulls[r][i] == null ? otherwise : nulls[r][i];
    }

    private String nullOf(int a, int b, int i) {
        if (nulls[a][i] == null) {
            return nulls[b][i];
        }
        return nulls[b][i] == null ? nulls[a][i] : out.or(nulls[a][i], nulls[b][i]);
    }

    /** A double literal C reads back exactly (powers of ten up to 10^22 are exact doubles). */
    private static String doubleLiteral(long v) {
        return v + ".0";
    }
}

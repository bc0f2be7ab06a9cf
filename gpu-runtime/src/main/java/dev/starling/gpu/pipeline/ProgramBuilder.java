package dev.starling.gpu.pipeline;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.storage.DataType;
import dev.starling.exec.vector.StrDict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Compiles expressions in explicit form ({@link ExprLowering}: every conversion a CAST of its own)
 * over a star pipeline's sources into a register program; the semantics of each instruction are
 * the CPU evaluator's (docs/GPU.md). Each distinct expression gets one register, so a
 * subexpression shared by a predicate and an aggregate is computed once.
 */
final class ProgramBuilder {
    /**
     * Registers a program may use. Each becomes a variable of the generated CUDA C, assigned once,
     * which NVRTC allocates to machine registers as values die (the launcher picks fewer rows a
     * thread when a kernel needs many): the bound only keeps a pathological expression from
     * generating a kernel that takes long to compile. TPC-H Q19's part dimension, its brand and
     * container IN lists each a chain of equalities, needs about 70.
     */
    static final int MAX_REGISTERS = 256;

    private final List<ColumnOrigin> sources;
    private final IntFunction<StrDict> factDictionary;
    private final List<int[]> code = new ArrayList<>();
    private final List<Long> constants = new ArrayList<>();
    private final Map<Expr, Integer> registers = new HashMap<>();
    private final List<Integer> factColumns = new ArrayList<>();
    private final List<Integer> keyColumns = new ArrayList<>();
    private final List<StarPipeline.StringFunction> answers = new ArrayList<>();
    private final List<StarPipeline.DimColumn> dimColumns = new ArrayList<>();
    private final Map<Integer, Integer> dimKeyRegister = new HashMap<>();
    private int nextRegister;

    /** {@code factDictionary}: the dictionary of a VARCHAR fact table column. */
    ProgramBuilder(List<ColumnOrigin> sources, IntFunction<StrDict> factDictionary) {
        this.sources = sources;
        this.factDictionary = factDictionary;
    }

    /** Rejects rows for which {@code predicate} is not TRUE; each conjunct is its own test, so a row stops at the first it fails. */
    void filter(Expr predicate) throws Unsupported {
        if (predicate instanceof Call c && c.op() == Call.Op.AND) {
            for (Expr conjunct : c.args()) {
                filter(conjunct);
            }
            return;
        }
        emit(Opcode.FILTER, 0, register(predicate), 0, 0);
    }

    /**
     * Rejects the rows {@code mode} does not let go on: those whose {@code key} finds no row of the
     * dimension, or (ANTI) those whose key finds one. A dense key is the dimension row's code; a
     * hashed one is looked up and yields the row's index. Either then indexes the dimension's
     * columns, which an ANTI join has none of; OUTER, its row of NULLs where the key finds none.
     */
    void probe(int dimension, Expr key, boolean hashed, ProbeMode mode) throws Unsupported {
        int k = register(key);
        if (hashed) {
            k = emit(Opcode.PROBE_HASH, fresh(), k, dimension, mode.ordinal());
        } else if (mode == ProbeMode.OUTER) {
            k = emit(Opcode.PROBE, fresh(), k, dimension, mode.ordinal());
        } else {
            emit(Opcode.PROBE, 0, k, dimension, mode.ordinal());
        }
        dimKeyRegister.put(dimension, k);
    }

    /** The register holding dimension {@code d}'s position for the row: its code, or the row index a hash probe found. */
    int position(int d) {
        return dimKeyRegister.get(d);
    }

    /** A fact-column group key; returns the index of its three constants (minimum, range, multiplier). */
    int factGroupKey(Expr column) throws Unsupported {
        return groupKey(register(column));
    }

    /** A foreign key's key values as a group key, by their codes; returns the index of its three constants. */
    int codeGroupKey(int tableColumn) throws Unsupported {
        return groupKey(emit(Opcode.LOAD_FACT, fresh(), slot(factColumns, tableColumn), 0, 0));
    }

    /**
     * A group key that is an expression of one fact string column: its digit is the rank of its
     * value, which the host gives each dictionary entry. Returns the index of its answers and of
     * its three constants.
     */
    int[] rankedGroupKey(Expr e) throws Unsupported {
        int register = loadAnswer(e, true);
        return new int[] {answers.size() - 1, groupKey(register)};
    }

    private int groupKey(int register) {
        int at = constants.size();
        constants.add(0L);
        constants.add(0L);
        constants.add(0L);
        emit(Opcode.GROUP_KEY, 0, register, at, 0);
        return at;
    }

    int[] code() {
        int[] out = new int[code.size() * 4];
        for (int i = 0; i < code.size(); i++) {
            System.arraycopy(code.get(i), 0, out, i * 4, 4);
        }
        return out;
    }

    long[] constants() {
        return constants.stream().mapToLong(Long::longValue).toArray();
    }

    List<Integer> factColumns() {
        return factColumns;
    }

    List<Integer> keyColumns() {
        return keyColumns;
    }

    List<StarPipeline.StringFunction> answers() {
        return answers;
    }

    List<StarPipeline.DimColumn> dimColumns() {
        return dimColumns;
    }

    /** The register holding {@code e}'s value in the storage representation of its type. */
    int register(Expr e) throws Unsupported {
        Integer r = registers.get(e);
        if (r == null) {
            int d = DimensionExprs.dimensionOf(e, sources);
            // folds are known once every build row is folded, after the build computes its expressions
            boolean perDimensionRow = d >= 0 && !(e instanceof Call && DimensionExprs.readsFolds(e, sources));
            r = perDimensionRow ? loadDimension(d, e) : answeredByDictionary(e) ? loadAnswer(e, false) : compile(e);
            registers.put(e, r);
        }
        return r;
    }

    private int compile(Expr e) throws Unsupported {
        return switch (e) {
            case ColumnRef c -> load(c);
            case Literal l -> literal(l);
            case Call c -> call(c);
        };
    }

    private int load(ColumnRef c) throws Unsupported {
        return switch (sources.get(c.index())) {
            case ColumnOrigin.Fact f -> emit(Opcode.LOAD_FACT, fresh(), slot(factColumns, f.tableColumn()), 0, 0);
            case ColumnOrigin.FactKey k -> {
                int code = emit(Opcode.LOAD_FACT, fresh(), slot(factColumns, k.tableColumn()), 0, 0);
                yield emit(Opcode.LOAD_KEY, fresh(), slot(keyColumns, k.tableColumn()), code, 0);
            }
            case ColumnOrigin.RowId r -> emit(Opcode.LOAD_ROW, fresh(), 0, 0, 0);
            case ColumnOrigin.Dim d -> throw new IllegalStateException("dimension column " + c + " not loaded as a dimension expression");
        };
    }

    private static int slot(List<Integer> columns, int column) {
        int at = columns.indexOf(column);
        if (at < 0) {
            at = columns.size();
            columns.add(column);
        }
        return at;
    }

    /**
     * A dimension-only expression, computed per dimension row on the CPU, or a fold of a
     * dimension's rows, folded by its build: read by code here.
     */
    private int loadDimension(int d, Expr e) throws Unsupported {
        if (e.type().kind() == DataType.Kind.VARCHAR) {
            throw new Unsupported("a string from a dimension used above its join other than as a group key");
        }
        int slot = dimColumns.size();
        AggKind fold = e instanceof ColumnRef c && sources.get(c.index()) instanceof ColumnOrigin.Dim dim ? dim.fold() : null;
        dimColumns.add(new StarPipeline.DimColumn(d, DimensionExprs.toBuildColumns(e, sources), fold));
        return emit(Opcode.LOAD_DIM, fresh(), slot, dimKeyRegister.get(d), 0);
    }

    /**
     * Whether {@code e} is a boolean expression of one fact string column that codes alone do not
     * answer (a LIKE, a SUBSTRING, a comparison of order): the host answers it per dictionary entry,
     * and the program reads the answer by the row's code.
     */
    private boolean answeredByDictionary(Expr e) {
        if (e.type().kind() != DataType.Kind.BOOLEAN || e instanceof ColumnRef) {
            return false;
        }
        int[] columns = ExprCompiler.columnsOf(e);
        return columns.length == 1 && sources.get(columns[0]) instanceof ColumnOrigin.Fact f
                && f.type().kind() == DataType.Kind.VARCHAR && !comparesCodes(e);
    }

    /** Whether {@code e} uses strings only as a column compared = or <> with constants (also in IN), which codes decide. */
    private static boolean comparesCodes(Expr e) {
        return switch (e) {
            case ColumnRef c -> c.type().kind() != DataType.Kind.VARCHAR;
            case Literal l -> true;
            case Call c when (c.op() == Call.Op.EQ || c.op() == Call.Op.NE || c.op() == Call.Op.IN)
                    && c.args().get(0).type().kind() == DataType.Kind.VARCHAR ->
                    c.args().stream().filter(a -> a instanceof ColumnRef).count() == 1
                            && c.args().stream().allMatch(a -> a instanceof ColumnRef || a instanceof Literal);
            case Call c -> c.args().stream().allMatch(ProgramBuilder::comparesCodes);
        };
    }

    /** {@code e}, of one fact string column, answered per dictionary entry: a predicate's answer, or ({@code ranks}) its value's rank. */
    private int loadAnswer(Expr e, boolean ranks) throws Unsupported {
        int column = ExprCompiler.columnsOf(e)[0];
        ColumnOrigin.Fact f = (ColumnOrigin.Fact) sources.get(column);
        answers.add(new StarPipeline.StringFunction(f.tableColumn(), Expr.ofColumnZero(e, column, f.type(), f.nullable()),
                ranks));
        int codes = register(new ColumnRef(column, f.type(), f.nullable()));
        return emit(Opcode.LOAD_ANSWER, fresh(), answers.size() - 1, codes, ranks ? 1 : 0);
    }

    private int literal(Literal l) throws Unsupported {
        if (l.value() == null) {
            return emit(Opcode.CONST_NULL, fresh(), 0, 0, 0);
        }
        long bits = switch (l.value()) {
            case Long v -> v;
            case Double v -> Double.doubleToRawLongBits(v);
            case Boolean v -> v ? 1 : 0;
            default -> throw new Unsupported("string constant " + l + " outside a comparison with a fact column");
        };
        return constant(bits);
    }

    private int constant(long bits) throws Unsupported {
        constants.add(bits);
        return emit(Opcode.CONST, fresh(), constants.size() - 1, 0, 0);
    }

    private int call(Call c) throws Unsupported {
        ExprLowering.requireExplicit(c);
        List<Expr> args = c.args();
        return switch (c.op()) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD -> arithmetic(c);
            case NEGATE -> unary(isDouble(c.type()) ? Opcode.FNEG : Opcode.NEG, args.get(0));
            case ABS -> unary(isDouble(c.type()) ? Opcode.FABS : Opcode.ABS, args.get(0));
            case EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY ->
                    emit(Opcode.EXTRACT, fresh(), register(args.get(0)), 0, c.op().ordinal() - Call.Op.EXTRACT_YEAR.ordinal());
            case DATE_ADD_DAYS -> emit(Opcode.ADD, fresh(), register(args.get(0)), register(args.get(1)), 0);
            case DATE_ADD_MONTHS -> emit(Opcode.ADD_MONTHS, fresh(), register(args.get(0)), register(args.get(1)), 0);
            case EQ, NE, LT, LE, GT, GE -> compare(c.op(), args.get(0), args.get(1));
            case AND, OR -> {
                int acc = register(args.get(0));
                for (int i = 1; i < args.size(); i++) {
                    acc = emit(c.op() == Call.Op.AND ? Opcode.AND : Opcode.OR, fresh(), acc, register(args.get(i)), 0);
                }
                yield acc;
            }
            case NOT -> unary(Opcode.NOT, args.get(0));
            case IS_NULL -> unary(Opcode.IS_NULL, args.get(0));
            case IS_NOT_NULL -> unary(Opcode.IS_NOT_NULL, args.get(0));
            case IS_TRUE -> unary(Opcode.IS_TRUE, args.get(0));
            case IS_FALSE -> unary(Opcode.IS_FALSE, args.get(0));
            case IS_NOT_TRUE -> unary(Opcode.IS_NOT_TRUE, args.get(0));
            case IS_NOT_FALSE -> unary(Opcode.IS_NOT_FALSE, args.get(0));
            case IN -> in(args.get(0), args.subList(1, args.size()));
            case CASE -> {
                int acc = register(args.get(args.size() - 1));
                for (int i = args.size() - 3; i >= 0; i -= 2) {
                    acc = emit(Opcode.SELECT, fresh(), register(args.get(i + 1)), acc, register(args.get(i)));
                }
                yield acc;
            }
            case COALESCE -> {
                int acc = register(args.get(args.size() - 1));
                for (int i = args.size() - 2; i >= 0; i--) {
                    acc = emit(Opcode.COALESCE, fresh(), register(args.get(i)), acc, 0);
                }
                yield acc;
            }
            case CAST -> convert(register(args.get(0)), args.get(0).type(), c.type());
            default -> throw new Unsupported(c.op() + " in a GPU pipeline");
        };
    }

    private int unary(Opcode op, Expr arg) throws Unsupported {
        return emit(op, fresh(), register(arg), 0, 0);
    }

    /** Operands in explicit form: doubles, or scaled longs of one scale (a product or quotient of any scales, rounded to the result's). */
    private int arithmetic(Call c) throws Unsupported {
        int a = register(c.args().get(0));
        int b = register(c.args().get(1));
        if (isDouble(c.type())) {
            Opcode op = switch (c.op()) {
                case ADD -> Opcode.FADD;
                case SUBTRACT -> Opcode.FSUB;
                case MULTIPLY -> Opcode.FMUL;
                case DIVIDE -> Opcode.FDIV;
                default -> throw new Unsupported("MOD of doubles in a GPU pipeline");
            };
            return emit(op, fresh(), a, b, 0);
        }
        return switch (c.op()) {
            case ADD -> emit(Opcode.ADD, fresh(), a, b, 0);
            case SUBTRACT -> emit(Opcode.SUB, fresh(), a, b, 0);
            case MULTIPLY -> {
                int drop = ExprLowering.productDrop(c);
                yield drop > 0 ? emit(Opcode.MUL_DOWN, fresh(), a, b, drop) : rescale(emit(Opcode.MUL, fresh(), a, b, 0), 0, -drop);
            }
            case DIVIDE -> {
                if (ExprLowering.truncates(c)) {
                    yield emit(Opcode.IDIV, fresh(), a, b, 0);
                }
                int shift = ExprLowering.quotientShift(c);
                yield emit(Opcode.DIV, fresh(), shift < 0 ? rescale(a, -shift, 0) : a, b, Math.max(shift, 0));
            }
            default -> emit(Opcode.MOD, fresh(), a, b, 0);
        };
    }

    private int compare(Call.Op op, Expr a, Expr b) throws Unsupported {
        if (a.type().kind() == DataType.Kind.VARCHAR) {
            return compareCode(op, a, b);
        }
        int index = op.ordinal() - Call.Op.EQ.ordinal();
        Opcode first = isDouble(a.type()) ? Opcode.FEQ : Opcode.EQ;
        return emit(Opcode.values()[first.ordinal() + index], fresh(), register(a), register(b), 0);
    }

    /** {@code value IN (literals)}: a disjunction of equalities; with no literal left, FALSE (NULL for a NULL value). */
    private int in(Expr value, List<Expr> literals) throws Unsupported {
        if (literals.isEmpty()) {
            int isNull = unary(Opcode.IS_NULL, value);
            return emit(Opcode.SELECT, fresh(), emit(Opcode.CONST_NULL, fresh(), 0, 0, 0), constant(0), isNull);
        }
        int acc = -1;
        for (Expr literal : literals) {
            int eq = compare(Call.Op.EQ, value, literal);
            acc = acc < 0 ? eq : emit(Opcode.OR, fresh(), acc, eq, 0);
        }
        return acc;
    }

    /** A fact string column against a string constant: the constant becomes its dictionary code. */
    private int compareCode(Call.Op op, Expr a, Expr b) throws Unsupported {
        Expr column = a instanceof Literal ? b : a;
        Expr constant = a instanceof Literal ? a : b;
        if (!(op == Call.Op.EQ || op == Call.Op.NE) || !(constant instanceof Literal l)
                || !(column instanceof ColumnRef ref) || !(sources.get(ref.index()) instanceof ColumnOrigin.Fact f)) {
            throw new Unsupported("string comparison other than = or <> between a fact column and a constant");
        }
        if (l.value() == null) {
            return emit(Opcode.CONST_NULL, fresh(), 0, 0, 0);
        }
        // A string absent from the dictionary matches no row; -1 is no code.
        int codeOf = factDictionary.apply(f.tableColumn()).codeOf((String) l.value());
        return emit(op == Call.Op.EQ ? Opcode.EQ : Opcode.NE, fresh(), register(column), constant(codeOf), 0);
    }

    /** A CAST between numeric types: the register holding {@code r}'s value converted, as the CPU backend converts. */
    private int convert(int r, DataType from, DataType to) throws Unsupported {
        if (from.kind() == to.kind() && from.scale() == to.scale()) {
            return r;
        }
        if (isDouble(to)) {
            exact(from);
            return emit(Opcode.I2F, fresh(), r, 0, from.scale());
        }
        exact(to);
        int out = isDouble(from) ? emit(Opcode.F2I, fresh(), r, 0, to.scale()) : rescale(r, exact(from).scale(), to.scale());
        if (to.kind() == DataType.Kind.INTEGER) {
            emit(Opcode.CHECK_INT, 0, out, 0, 0);
        } else if (to.kind() == DataType.Kind.DECIMAL && !to.holdsEveryCastOf(from)) {
            emit(Opcode.CHECK_DIGITS, 0, out, 0, to.precision());
        }
        return out;
    }

    private int rescale(int r, int from, int to) throws Unsupported {
        if (from == to) {
            return r;
        }
        return emit(to > from ? Opcode.SCALE_UP : Opcode.SCALE_DOWN, fresh(), r, 0, Math.abs(to - from));
    }

    private static DataType exact(DataType t) throws Unsupported {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DECIMAL -> t;
            default -> throw new Unsupported("arithmetic or conversion on " + t + " in a GPU pipeline");
        };
    }

    private static boolean isDouble(DataType t) {
        return t.kind() == DataType.Kind.DOUBLE;
    }

    private int fresh() throws Unsupported {
        if (nextRegister == MAX_REGISTERS) {
            throw new Unsupported("expressions needing more than " + MAX_REGISTERS + " registers");
        }
        return nextRegister++;
    }

    private int emit(Opcode op, int dst, int a, int b, int imm) {
        code.add(new int[] {op.ordinal() | (imm << 8), dst, a, b});
        return dst;
    }
}

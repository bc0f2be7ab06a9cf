package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.vector.StrDict;
import dev.starling.storage.DataType;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

/** Turns a plan expression (in explicit form: {@link ExprLowering}) into its vectorized evaluator, choosing the dictionary paths for strings. */
public final class ExprCompiler {
    private ExprCompiler() { }

    public static VecExpr compile(Expr expr) {
        return switch (expr) {
            case ColumnRef c -> new ColumnEval(c.index());
            case Literal l -> new LiteralEval(l);
            case Call c -> call(c);
        };
    }

    /** The input columns an expression reads, ascending. */
    public static int[] columnsOf(Expr expr) {
        TreeSet<Integer> out = new TreeSet<>();
        collect(expr, out);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void collect(Expr expr, Set<Integer> out) {
        switch (expr) {
            case ColumnRef c -> out.add(c.index());
            case Literal l -> { }
            case Call c -> c.args().forEach(a -> collect(a, out));
        }
    }

    private static VecExpr call(Call c) {
        ExprLowering.requireExplicit(c);
        List<Expr> a = c.args();
        return switch (c.op()) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD -> new ArithmeticEval(c, compile(a.get(0)), compile(a.get(1)));
            case NEGATE, ABS -> new UnaryNumericEval(c.op() == Call.Op.NEGATE, compile(a.get(0)), c.type());
            case EQ, NE, LT, LE, GT, GE -> comparison(c.op(), a.get(0), a.get(1));
            case AND, OR -> new AndOrEval(c.op() == Call.Op.AND, compileAll(a), columnsOfAll(a));
            case NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE ->
                    new TruthEval(c.op(), compile(a.get(0)));
            case CASE -> caseOf(a, c.type());
            case COALESCE -> new BranchEval(null, null, compileAll(a), columnsOfAll(a), c.type());
            case LIKE -> new DictPredicateEval(compile(a.get(0)),
                    LikePattern.compile(stringLiteral(a.get(1), "LIKE pattern"),
                            a.size() > 2 ? stringLiteral(a.get(2), "LIKE escape") : null), false);
            case IN -> in(a);
            case EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY ->
                    new DateEval(c.op(), compile(a.get(0)), null, c.type());
            case DATE_ADD_DAYS, DATE_ADD_MONTHS -> new DateEval(c.op(), compile(a.get(0)), compile(a.get(1)), c.type());
            case SUBSTRING -> substring(a, c.type());
            case CAST -> CastEval.compile(compile(a.get(0)), a.get(0).type(), c.type());
            case UPPER -> new DictMapEval(compile(a.get(0)), s -> s.toUpperCase(Locale.ROOT), c.type());
            case LOWER -> new DictMapEval(compile(a.get(0)), s -> s.toLowerCase(Locale.ROOT), c.type());
            case TRIM -> new DictMapEval(compile(a.get(0)), ExprCompiler::trimSpaces, c.type());
            case CHAR_LENGTH -> new DictMapEval(compile(a.get(0)), s -> (long) s.codePointCount(0, s.length()), c.type());
            case CONCAT -> concat(a, c.type());
        };
    }

    private static VecExpr[] compileAll(List<Expr> args) {
        return args.stream().map(ExprCompiler::compile).toArray(VecExpr[]::new);
    }

    private static int[][] columnsOfAll(List<Expr> args) {
        return args.stream().map(ExprCompiler::columnsOf).toArray(int[][]::new);
    }

    private static VecExpr comparison(Call.Op op, Expr left, Expr right) {
        if (left.type().kind() == DataType.Kind.VARCHAR) {
            if (right instanceof Literal l && l.value() != null) {
                return new DictPredicateEval(compile(left), stringTest(op, (String) l.value()), false);
            }
            if (left instanceof Literal l && l.value() != null) {
                return new DictPredicateEval(compile(right), stringTest(op.flipped(), (String) l.value()), false);
            }
        }
        return new CompareEval(op, compile(left), compile(right));
    }

    private static Predicate<String> stringTest(Call.Op op, String constant) {
        return switch (op) {
            case EQ -> constant::equals;
            case NE -> s -> !s.equals(constant);
            case LT -> s -> StrDict.compare(s, constant) < 0;
            case LE -> s -> StrDict.compare(s, constant) <= 0;
            case GT -> s -> StrDict.compare(s, constant) > 0;
            case GE -> s -> StrDict.compare(s, constant) >= 0;
            default -> throw new IllegalStateException(op + " is not a comparison");
        };
    }

    private static VecExpr caseOf(List<Expr> a, DataType type) {
        int branches = (a.size() - 1) / 2;
        VecExpr[] conditions = new VecExpr[branches];
        int[][] conditionColumns = new int[branches][];
        VecExpr[] values = new VecExpr[branches + 1];
        int[][] valueColumns = new int[branches + 1][];
        for (int i = 0; i < branches; i++) {
            conditions[i] = compile(a.get(2 * i));
            conditionColumns[i] = columnsOf(a.get(2 * i));
            values[i] = compile(a.get(2 * i + 1));
            valueColumns[i] = columnsOf(a.get(2 * i + 1));
        }
        values[branches] = compile(a.get(a.size() - 1));
        valueColumns[branches] = columnsOf(a.get(a.size() - 1));
        return new BranchEval(conditions, conditionColumns, values, valueColumns, type);
    }

    private static VecExpr in(List<Expr> a) {
        Expr value = a.get(0);
        List<Expr> list = a.subList(1, a.size());
        Object[] literals = new Object[list.size()];
        boolean hasNull = false;
        for (int i = 0; i < literals.length; i++) {
            if (!(list.get(i) instanceof Literal l)) {
                throw new IllegalArgumentException("IN list entries must be literals, got " + list.get(i));
            }
            literals[i] = l.value();
            hasNull |= l.value() == null;
        }
        if (value.type().kind() == DataType.Kind.VARCHAR) {
            Set<String> set = new HashSet<>();
            for (Object o : literals) {
                if (o != null) {
                    set.add((String) o);
                }
            }
            return new DictPredicateEval(compile(value), set::contains, hasNull);
        }
        return new InEval(compile(value), value.type().kind() == DataType.Kind.DOUBLE, literals);
    }

    private static VecExpr substring(List<Expr> a, DataType type) {
        long start = longLiteral(a.get(1), "SUBSTRING start");
        Long length = a.size() > 2 ? longLiteral(a.get(2), "SUBSTRING length") : null;
        if (length != null && length < 0) {
            throw new IllegalArgumentException("SUBSTRING length must not be negative, got " + length);
        }
        return new DictMapEval(compile(a.get(0)), s -> substring(s, start, length), type);
    }

    /** SQL semantics: characters at 1-based positions [start, start + length) that exist. */
    static String substring(String s, long start, Long length) {
        long from = Math.max(start, 1);
        long to = length == null ? Long.MAX_VALUE : start + length;
        int f = (int) Math.min(from - 1, s.length());
        int t = (int) Math.max(f, Math.min(to - 1, s.length()));
        return s.substring(f, t);
    }

    private static String trimSpaces(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && s.charAt(from) == ' ') {
            from++;
        }
        while (to > from && s.charAt(to - 1) == ' ') {
            to--;
        }
        return s.substring(from, to);
    }

    private static VecExpr concat(List<Expr> a, DataType type) {
        int variable = -1;
        int variables = 0;
        for (int i = 0; i < a.size(); i++) {
            if (!(a.get(i) instanceof Literal)) {
                variable = i;
                variables++;
            }
        }
        boolean anyNullLiteral = a.stream().anyMatch(e -> e instanceof Literal l && l.value() == null);
        if (variables == 1 && !anyNullLiteral && a.get(variable).type().kind() == DataType.Kind.VARCHAR) {
            String prefix = joinLiterals(a.subList(0, variable));
            String suffix = joinLiterals(a.subList(variable + 1, a.size()));
            return new DictMapEval(compile(a.get(variable)), s -> prefix + s + suffix, type);
        }
        VecExpr[] inputs = new VecExpr[a.size()];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = CastEval.compile(compile(a.get(i)), a.get(i).type(), DataType.VARCHAR);
        }
        Function<Object[], String> join = args -> {
            StringBuilder sb = new StringBuilder();
            for (Object o : args) {
                sb.append((String) o);
            }
            return sb.toString();
        };
        return new RowStringEval(inputs, join, type);
    }

    private static String joinLiterals(List<Expr> literals) {
        StringBuilder sb = new StringBuilder();
        for (Expr e : literals) {
            Object v = ((Literal) e).value();
            sb.append(v instanceof String s ? s : String.valueOf(v));
        }
        return sb.toString();
    }

    private static String stringLiteral(Expr e, String what) {
        if (e instanceof Literal l && l.value() instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException(what + " must be a string literal, got " + e);
    }

    private static long longLiteral(Expr e, String what) {
        if (e instanceof Literal l && l.value() instanceof Long v && l.type().isIntegral()) {
            return v;
        }
        throw new IllegalArgumentException(what + " must be an integer literal, got " + e);
    }
}

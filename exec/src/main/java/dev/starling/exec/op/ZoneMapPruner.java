package dev.starling.exec.op;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.eval.DictionaryAnswers;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.exec.vector.StrDict;
import dev.starling.storage.Column;
import dev.starling.storage.DataType;
import dev.starling.storage.ZoneMap;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides from a scan filter which chunks may hold qualifying rows. Conjuncts comparing a stored
 * numeric or date column with a literal (=, <, <=, >, >=, IN) narrow a [lo, hi] range per column,
 * widened outwards to whole stored units so rounding can never skip a qualifying chunk; a chunk
 * whose zone map misses any range, or (for =) lacks the one value among its small values, is
 * skipped. A conjunct of one dictionary-coded string column (=, IN, LIKE, any function of it) is
 * answered per dictionary entry by the CPU evaluator ({@link DictionaryAnswers}: string semantics
 * written once), and a chunk none of whose codes answer TRUE is skipped: by its codes' [min, max]
 * and, for a small dictionary, by the set of codes it holds. Dense-coded columns are not pruned.
 * The CPU's scans and the GPU's fact scans skip chunks by this one rule.
 */
public final class ZoneMapPruner {
    /** The largest dictionary whose entries a scan answers a string conjunct for (planning cost). */
    private static final int ANSWERED_ENTRIES = 1 << 16;

    private record Range(int column, DataType type, BigDecimal lo, BigDecimal hi) { }

    /**
     * A string conjunct's TRUE codes: {@code trueBefore[c]} of them below code c, {@code small}
     * those below 64 as bits; {@code nullTrue}: whether it holds for a NULL string.
     */
    private record Codes(int column, int[] trueBefore, long small, boolean nullTrue) {
        boolean mayMatch(ZoneMap z) {
            if (nullTrue && z.nulls() > 0) {
                return true;
            }
            if (z.nonNull() == 0) {
                return false;
            }
            int lo = (int) Math.max(0, z.min());
            int hi = (int) Math.min(trueBefore.length - 2, z.max());
            if (lo > hi || trueBefore[hi + 1] == trueBefore[lo]) {
                return false;
            }
            // a chunk that knows its small values holds no others
            return z.absentSmall() == 0 || (~z.absentSmall() & small) != 0;
        }
    }

    private final List<Range> ranges;
    private final List<Codes> codes;

    public ZoneMapPruner(ScanNode scan) {
        Map<Integer, Range> byColumn = new HashMap<>();
        List<Codes> strings = new ArrayList<>();
        if (scan.filter() != null) {
            for (Expr conjunct : Call.conjuncts(scan.filter())) {
                Range r = rangeOf(scan, conjunct);
                if (r != null) {
                    byColumn.merge(r.column, r, ZoneMapPruner::intersect);
                    continue;
                }
                Codes c = codesOf(scan, conjunct);
                if (c != null) {
                    strings.add(c);
                }
            }
        }
        ranges = List.copyOf(byColumn.values());
        codes = List.copyOf(strings);
    }

    public boolean isEmpty() {
        return ranges.isEmpty() && codes.isEmpty();
    }

    public boolean mayMatch(ScanNode scan, int chunk) {
        for (Codes c : codes) {
            if (!c.mayMatch(column(scan, c.column).chunks().get(chunk).zoneMap())) {
                return false;
            }
        }
        for (Range r : ranges) {
            ZoneMap z = column(scan, r.column).chunks().get(chunk).zoneMap();
            boolean may;
            if (r.type.kind() == DataType.Kind.DOUBLE) {
                double lo = r.lo == null ? Double.NEGATIVE_INFINITY : Math.nextDown(r.lo.doubleValue());
                double hi = r.hi == null ? Double.POSITIVE_INFINITY : Math.nextUp(r.hi.doubleValue());
                may = z.mayContainRange(lo, hi);
            } else {
                long lo = r.lo == null ? Long.MIN_VALUE : clamp(r.lo.setScale(0, RoundingMode.FLOOR));
                long hi = r.hi == null ? Long.MAX_VALUE : clamp(r.hi.setScale(0, RoundingMode.CEILING));
                may = lo == hi ? z.mayContain(lo) : z.mayContainRange(lo, hi);
            }
            if (!may) {
                return false;
            }
        }
        return true;
    }

    private static Column column(ScanNode scan, int column) {
        return scan.table().column(scan.columns().get(column).column());
    }

    /**
     * {@code e}'s TRUE codes where it reads one dictionary-coded string column of the scan (its
     * values, not dense codes) whose dictionary is small enough to answer; null otherwise.
     */
    private static Codes codesOf(ScanNode scan, Expr e) {
        int[] read = ExprCompiler.columnsOf(e);
        if (read.length != 1 || e.type().kind() != DataType.Kind.BOOLEAN) {
            return null;
        }
        ScanColumn sc = scan.columns().get(read[0]);
        if (sc.mode() != ScanColumn.Mode.VALUE) {
            return null;
        }
        Column col = scan.table().column(sc.column());
        if (col.type().kind() != DataType.Kind.VARCHAR || col.dictionary().size() > ANSWERED_ENTRIES) {
            return null;
        }
        byte[] answers;
        try {
            answers = DictionaryAnswers.of(Expr.ofColumnZero(e, read[0], col.type(), col.schema().nullable()), col.type(),
                    StrDict.of(col.dictionary()));
        } catch (RuntimeException fails) {
            // an entry whose answer fails (a cast): whether a row meets it is the scan's to say
            return null;
        }
        int entries = answers.length - 1;
        int[] trueBefore = new int[entries + 1];
        long small = 0;
        for (int c = 0; c < entries; c++) {
            boolean holds = answers[c] == DictionaryAnswers.TRUE;
            trueBefore[c + 1] = trueBefore[c] + (holds ? 1 : 0);
            if (holds && c < Long.SIZE) {
                small |= 1L << c;
            }
        }
        return new Codes(read[0], trueBefore, small, answers[entries] == DictionaryAnswers.TRUE);
    }

    private static long clamp(BigDecimal v) {
        if (v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return Long.MAX_VALUE;
        }
        if (v.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
            return Long.MIN_VALUE;
        }
        return v.longValueExact();
    }

    private static Range intersect(Range a, Range b) {
        BigDecimal lo = a.lo == null ? b.lo : b.lo == null ? a.lo : a.lo.max(b.lo);
        BigDecimal hi = a.hi == null ? b.hi : b.hi == null ? a.hi : a.hi.min(b.hi);
        return new Range(a.column, a.type, lo, hi);
    }

    private static Range rangeOf(ScanNode scan, Expr e) {
        if (!(e instanceof Call c)) {
            return null;
        }
        if (c.op() == Call.Op.IN && c.args().get(0) instanceof ColumnRef ref) {
            DataType t = prunable(scan, ref);
            if (t == null) {
                return null;
            }
            BigDecimal lo = null;
            BigDecimal hi = null;
            for (Expr item : c.args().subList(1, c.args().size())) {
                BigDecimal v = item instanceof Literal l ? stored(l, t) : null;
                if (v == null) {
                    return null;
                }
                lo = lo == null ? v : lo.min(v);
                hi = hi == null ? v : hi.max(v);
            }
            return lo == null ? null : new Range(ref.index(), t, lo, hi);
        }
        if (c.args().size() != 2) {
            return null;
        }
        Call.Op op = c.op();
        Expr left = c.args().get(0);
        Expr right = c.args().get(1);
        if (left instanceof Literal && right instanceof ColumnRef) {
            Expr swap = left;
            left = right;
            right = swap;
            op = switch (op) {
                case LT -> Call.Op.GT;
                case LE -> Call.Op.GE;
                case GT -> Call.Op.LT;
                case GE -> Call.Op.LE;
                default -> op;
            };
        }
        if (!(left instanceof ColumnRef ref) || !(right instanceof Literal lit)) {
            return null;
        }
        DataType t = prunable(scan, ref);
        BigDecimal v = t == null ? null : stored(lit, t);
        if (v == null) {
            return null;
        }
        return switch (op) {
            case EQ -> new Range(ref.index(), t, v, v);
            case LT, LE -> new Range(ref.index(), t, null, v);
            case GT, GE -> new Range(ref.index(), t, v, null);
            default -> null;
        };
    }

    /** The column's type when its chunks' zone maps hold its values; null otherwise. */
    private static DataType prunable(ScanNode scan, ColumnRef ref) {
        ScanColumn sc = scan.columns().get(ref.index());
        if (sc.mode() != ScanColumn.Mode.VALUE) {
            return null;
        }
        Column col = scan.table().column(sc.column());
        return switch (col.type().kind()) {
            case INTEGER, BIGINT, DATE, DECIMAL, DOUBLE -> col.isDenseCoded() ? null : col.type();
            default -> null;
        };
    }

    /** The literal in the column's stored units (scaled for DECIMAL); null when it cannot bound the column. */
    private static BigDecimal stored(Literal lit, DataType column) {
        if (lit.value() == null) {
            return null;
        }
        BigDecimal v = switch (lit.value()) {
            case Long l -> BigDecimal.valueOf(l, lit.type().kind() == DataType.Kind.DECIMAL ? lit.type().scale() : 0);
            case Double d -> Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
            default -> null;
        };
        if (v == null) {
            return null;
        }
        if ((lit.type().kind() == DataType.Kind.DATE) != (column.kind() == DataType.Kind.DATE)) {
            return null;
        }
        return column.kind() == DataType.Kind.DECIMAL ? v.movePointRight(column.scale()) : v;
    }
}

package dev.starling.exec.eval;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;

/**
 * A comparison of an exact numeric column (INTEGER, BIGINT, DECIMAL, DATE) with a literal, as the
 * test {@code lo <= value <= hi} (or its negation, for NE) on the column's stored longs: one
 * branch-free loop over the selection.
 */
final class RangeFilter extends SelectionFilter {
    private final int column;
    private final long lo;
    private final long hi;
    private final boolean outside;

    private RangeFilter(int column, long lo, long hi, boolean outside) {
        this.column = column;
        this.lo = lo;
        this.hi = hi;
        this.outside = outside;
    }

    /** The filter for {@code column op literal}, or null when the operands are not of that shape. */
    static RangeFilter of(Call.Op op, Expr column, Expr literal) {
        if (!(column instanceof ColumnRef ref) || !(literal instanceof Literal lit) || !(lit.value() instanceof Long v)) {
            return null;
        }
        boolean exact = switch (ref.type().kind()) {
            case INTEGER, BIGINT, DECIMAL, DATE -> true;
            default -> false;
        };
        // in explicit form a literal compared with a column is in the column's representation, or cast with it
        if (!exact || lit.type().scale() != ref.type().scale()) {
            return null;
        }
        long c = v;
        int i = ref.index();
        return switch (op) {
            case EQ -> new RangeFilter(i, c, c, false);
            case NE -> new RangeFilter(i, c, c, true);
            case LT -> c == Long.MIN_VALUE ? new RangeFilter(i, 1, 0, false) : new RangeFilter(i, Long.MIN_VALUE, c - 1, false);
            case LE -> new RangeFilter(i, Long.MIN_VALUE, c, false);
            case GT -> c == Long.MAX_VALUE ? new RangeFilter(i, 1, 0, false) : new RangeFilter(i, c + 1, Long.MAX_VALUE, false);
            case GE -> new RangeFilter(i, c, Long.MAX_VALUE, false);
            default -> null;
        };
    }

    @Override
    public int filter(Batch batch, int[] sel, int n) {
        Vector v = batch.column(column);
        long[] x = v.longs();
        boolean[] nulls = v.nulls();
        int kept = 0;
        if (nulls == null) {
            for (int i = 0; i < n; i++) {
                int r = sel[i];
                long y = x[r];
                sel[kept] = r;
                kept += ((y >= lo & y <= hi) != outside) ? 1 : 0;
            }
        } else {
            for (int i = 0; i < n; i++) {
                int r = sel[i];
                long y = x[r];
                sel[kept] = r;
                kept += ((y >= lo & y <= hi) != outside & !nulls[r]) ? 1 : 0;
            }
        }
        return kept;
    }
}

package dev.starling.exec;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.List;

/** Small helpers to hand-build plans and expressions in tests. */
final class Plans {
    private Plans() { }

    static ScanNode scan(Table t, int... columns) {
        return scan(t, null, columns);
    }

    static ScanNode scan(Table t, Expr filter, int... columns) {
        List<ScanColumn> cols = new ArrayList<>();
        for (int c : columns) {
            cols.add(ScanColumn.value(c));
        }
        return new ScanNode(t, cols, filter);
    }

    static ColumnRef col(int i, DataType t) {
        return new ColumnRef(i, t, true);
    }

    static Literal lit(long v, DataType t) {
        return new Literal(v, t);
    }

    static Literal str(String s) {
        return new Literal(s, DataType.VARCHAR);
    }

    /** The call in explicit form, as the planner hands expressions to the executor. */
    static Expr call(Call.Op op, DataType type, Expr... args) {
        return ExprLowering.lower(new Call(op, List.of(args), type, true));
    }

    static Expr bool(Call.Op op, Expr... args) {
        return call(op, DataType.BOOLEAN, args);
    }
}

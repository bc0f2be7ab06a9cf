package dev.starling.exec.expr;

import dev.starling.storage.DataType;

/**
 * A scalar expression over the columns of a plan node's input, evaluated a vector at a time.
 * Values follow the storage conventions: DECIMAL as a long scaled by 10^scale, DATE as days since
 * 1970-01-01, BOOLEAN as 0/1, VARCHAR as strings (dictionary codes in vectors). SQL three-valued
 * logic throughout: NULL in, NULL out, except AND/OR/IS [NOT] NULL/CASE/COALESCE.
 */
public sealed interface Expr permits ColumnRef, Literal, Call {
    DataType type();

    boolean nullable();

    /**
     * {@code e}, which reads input column {@code column} alone, as an expression of input column 0
     * (that column's values, of {@code type}): the form a string column's dictionary is answered in.
     */
    static Expr ofColumnZero(Expr e, int column, DataType type, boolean nullable) {
        java.util.List<Expr> inputs = new java.util.ArrayList<>(java.util.Collections.nCopies(column + 1, null));
        inputs.set(column, new ColumnRef(0, type, nullable));
        return substitute(e, inputs);
    }

    /** {@code e} with its column references replaced by the expressions of {@code inputs}. */
    static Expr substitute(Expr e, java.util.List<Expr> inputs) {
        return switch (e) {
            case ColumnRef c -> inputs.get(c.index());
            case Literal l -> l;
            case Call c -> new Call(c.op(), c.args().stream().map(a -> substitute(a, inputs)).toList(), c.type(), c.nullable());
        };
    }
}

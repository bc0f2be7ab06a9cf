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
}

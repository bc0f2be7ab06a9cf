package dev.starling.exec.eval;

import dev.starling.exec.expr.Literal;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;

/** A constant vector, built once at the largest batch size seen and shared (vectors are never modified). */
final class LiteralEval extends VecExpr {
    private final Literal literal;
    private Vector cached;
    private int capacity;

    LiteralEval(Literal literal) {
        this.literal = literal;
    }

    @Override
    public Vector eval(Batch batch) {
        if (cached == null || capacity < batch.rows()) {
            capacity = Math.max(batch.rows(), Batch.ROWS);
            cached = Vector.constant(literal.type(), literal.value(), capacity);
        }
        return cached;
    }
}

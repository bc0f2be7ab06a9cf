package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;

final class ColumnEval extends VecExpr {
    private final int index;

    ColumnEval(int index) {
        this.index = index;
    }

    @Override
    public Vector eval(Batch batch) {
        return batch.column(index);
    }
}

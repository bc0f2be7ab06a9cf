package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;

/**
 * A compiled expression: one call evaluates it over a whole batch, one loop per operator. Instances
 * hold per-dictionary caches, so each worker compiles its own.
 */
public abstract class VecExpr {
    public abstract Vector eval(Batch batch);
}

package dev.starling.exec.eval;

import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.function.Function;

/**
 * A VARCHAR result computed row by row from values that are not one dictionary's entries (CONCAT of
 * two columns, a number formatted as text): NULL in, NULL out; the batch gets a fresh dictionary.
 */
final class RowStringEval extends VecExpr {
    private final VecExpr[] inputs;
    private final Function<Object[], String> function;
    private final DataType type;

    RowStringEval(VecExpr[] inputs, Function<Object[], String> function, DataType type) {
        this.inputs = inputs;
        this.function = function;
        this.type = type;
    }

    @Override
    public Vector eval(Batch batch) {
        int n = batch.rows();
        Vector[] in = new Vector[inputs.length];
        for (int a = 0; a < in.length; a++) {
            in[a] = inputs[a].eval(batch);
        }
        StrDict.Builder dict = new StrDict.Builder();
        long[] out = new long[n];
        boolean[] nulls = null;
        Object[] args = new Object[in.length];
        for (int i = 0; i < n; i++) {
            boolean isNull = false;
            for (int a = 0; a < in.length && !isNull; a++) {
                args[a] = in[a].value(i);
                isNull = args[a] == null;
            }
            if (isNull) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
            } else {
                out[i] = dict.add(function.apply(args));
            }
        }
        return Vector.ofCodes(type, out, nulls, dict.build());
    }
}

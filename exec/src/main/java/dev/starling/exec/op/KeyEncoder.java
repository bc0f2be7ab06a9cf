package dev.starling.exec.op;

import dev.starling.exec.eval.Decimals;
import dev.starling.exec.vector.StringInterner;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import dev.starling.storage.Hashing;

/**
 * Brings key columns to one long per value so hash tables compare and hash plain longs: exact
 * numbers at a fixed scale, doubles as their bits (with -0.0 folded into 0.0), strings as codes of
 * an interner shared by everyone who must agree on them (both sides of a join, all aggregation workers).
 */
final class KeyEncoder {
    /** How one key column is encoded. */
    record Domain(boolean isDouble, int scale, boolean isString) {
        static Domain of(DataType t) {
            return new Domain(t.kind() == DataType.Kind.DOUBLE,
                    t.kind() == DataType.Kind.DECIMAL ? t.scale() : 0, t.kind() == DataType.Kind.VARCHAR);
        }

        /** The domain in which keys of types {@code a} and {@code b} compare equal exactly when their values do. */
        static Domain common(DataType a, DataType b) {
            Domain x = of(a);
            Domain y = of(b);
            return new Domain(x.isDouble || y.isDouble, Math.max(x.scale, y.scale), x.isString);
        }
    }

    /** Marks a string that the interner does not know: it can match nothing. */
    static final long UNKNOWN = Long.MIN_VALUE;

    private final Domain[] domains;
    private final StringInterner interner;
    private final boolean addStrings;

    KeyEncoder(Domain[] domains, StringInterner interner, boolean addStrings) {
        this.domains = domains;
        this.interner = interner;
        this.addStrings = addStrings;
    }

    long[] encode(int k, Vector v, int n) {
        Domain d = domains[k];
        long[] out = new long[n];
        if (d.isString) {
            long[] codes = v.longs();
            int[] map = v.dict().size() == 0 ? null : interner.translation(v.dict(), codes, n, addStrings);
            for (int i = 0; i < n; i++) {
                int c = map == null ? -1 : map[(int) codes[i]];
                out[i] = c < 0 ? UNKNOWN : c;
            }
        } else if (d.isDouble) {
            for (int i = 0; i < n; i++) {
                double x = v.isDouble() ? v.doubles()[i] : toDouble(v, i);
                out[i] = x == 0 ? 0 : Double.doubleToLongBits(x);
            }
        } else {
            int from = v.type().kind() == DataType.Kind.DECIMAL ? v.type().scale() : 0;
            long[] in = v.longs();
            if (from == d.scale) {
                System.arraycopy(in, 0, out, 0, n);
            } else {
                long f = Decimals.pow10(d.scale - from);
                for (int i = 0; i < n; i++) {
                    out[i] = Decimals.multiply(in[i], f);
                }
            }
        }
        return out;
    }

    private static double toDouble(Vector v, int i) {
        int s = v.type().kind() == DataType.Kind.DECIMAL ? v.type().scale() : 0;
        return v.longs()[i] / (double) Decimals.pow10(s);
    }

    /** Hashes of rows over key columns {@code keys}. */
    static int[] hashes(long[][] keys, int n) {
        int[] out = new int[n];
        long[] h = new long[n];
        for (long[] col : keys) {
            for (int i = 0; i < n; i++) {
                long x = Hashing.hash(h[i] ^ col[i]);
                h[i] = x ^ (x >>> 29);
            }
        }
        for (int i = 0; i < n; i++) {
            out[i] = (int) (h[i] ^ (h[i] >>> 32));
        }
        return out;
    }
}

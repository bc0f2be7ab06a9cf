package dev.starling.exec.op;

import dev.starling.exec.eval.Decimals;
import dev.starling.exec.plan.AggregateNode.AggCall;
import dev.starling.exec.plan.AggregateNode.Function;
import dev.starling.exec.vector.StrDict;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.DataType;
import java.util.Arrays;

/**
 * The running state of one aggregate call for every group, in primitive arrays indexed by group
 * id. Exact inputs (integers, decimals) sum in longs with overflow detection; DOUBLE in doubles.
 * {@code count} per group doubles as "has a value" for SUM/MIN/MAX/AVG, which are NULL without one.
 */
final class Accumulator {
    private final Function function;
    private final DataType argType;
    private final DataType type;
    private final boolean isDouble;
    private final boolean isString;
    private long[] count = new long[16];
    private long[] longs = new long[16];
    private double[] doubles = new double[16];
    private String[] strings;

    Accumulator(AggCall call, DataType argType) {
        this.function = call.function();
        this.argType = argType;
        this.type = call.type();
        this.isDouble = argType != null && (argType.kind() == DataType.Kind.DOUBLE
                || (type.kind() == DataType.Kind.DOUBLE && function == Function.SUM));
        this.isString = argType != null && argType.kind() == DataType.Kind.VARCHAR;
        this.strings = isString ? new String[16] : null;
    }

    /** The bytes of {@code groups} groups' states: a count, a long and a double each. */
    static long bytesFor(long groups) {
        return 24L * groups;
    }

    /** Whether sums and extremes of this call are kept as doubles (else as exact longs). */
    boolean usesDoubles() {
        return isDouble;
    }

    /** Takes over per-group states computed elsewhere, in this class's representation. */
    void load(long[] counts, long[] values, double[] doubleValues) {
        count = counts;
        longs = values;
        doubles = doubleValues;
    }

    void ensure(int groups) {
        if (groups <= count.length) {
            return;
        }
        int cap = Math.max(groups, count.length * 2);
        count = Arrays.copyOf(count, cap);
        longs = Arrays.copyOf(longs, cap);
        doubles = Arrays.copyOf(doubles, cap);
        if (strings != null) {
            strings = Arrays.copyOf(strings, cap);
        }
    }

    /** Adds rows {@code 0..n)} of {@code arg} (null for COUNT(*)) to groups {@code gids}; {@code skip} rows are left out. */
    void update(int[] gids, Vector arg, boolean[] skip, int n) {
        if (function == Function.COUNT_STAR) {
            for (int i = 0; i < n; i++) {
                if (skip == null || !skip[i]) {
                    count[gids[i]]++;
                }
            }
            return;
        }
        boolean[] nulls = arg.nulls();
        if (skip == null && nulls == null && !isString && (function == Function.SUM || function == Function.AVG
                || function == Function.COUNT)) {
            sum(gids, arg, n);
            return;
        }
        for (int i = 0; i < n; i++) {
            if ((skip != null && skip[i]) || (nulls != null && nulls[i])) {
                continue;
            }
            if (isString) {
                addString(gids[i], arg.dict(), (int) arg.longs()[i]);
            } else if (isDouble) {
                addDouble(gids[i], arg.isDouble() ? arg.doubles()[i] : arg.longs()[i] / (double) Decimals.pow10(scale()));
            } else {
                addLong(gids[i], arg.longs()[i]);
            }
        }
    }

    /**
     * COUNT, SUM and AVG over rows without NULLs or skips: one tight loop per representation. Count
     * and sum advance in the same loop so that, with few groups, their chains of updates to the same
     * slots overlap instead of running one after the other.
     */
    private void sum(int[] gids, Vector arg, int n) {
        if (function == Function.COUNT) {
            for (int i = 0; i < n; i++) {
                count[gids[i]]++;
            }
        } else if (!isDouble) {
            long[] x = arg.longs();
            for (int i = 0; i < n; i++) {
                int g = gids[i];
                count[g]++;
                longs[g] = sumExact(longs[g], x[i]);
            }
        } else if (arg.isDouble()) {
            double[] x = arg.doubles();
            for (int i = 0; i < n; i++) {
                int g = gids[i];
                count[g]++;
                doubles[g] += x[i];
            }
        } else {
            long[] x = arg.longs();
            double f = Decimals.pow10(scale());
            for (int i = 0; i < n; i++) {
                int g = gids[i];
                count[g]++;
                doubles[g] += x[i] / f;
            }
        }
    }

    private int scale() {
        return argType.kind() == DataType.Kind.DECIMAL ? argType.scale() : 0;
    }

    void addLong(int g, long v) {
        long c = count[g]++;
        switch (function) {
            case SUM, AVG -> longs[g] = sumExact(longs[g], v);
            case MIN -> longs[g] = c == 0 ? v : Math.min(longs[g], v);
            case MAX -> longs[g] = c == 0 ? v : Math.max(longs[g], v);
            default -> { }
        }
    }

    void addDouble(int g, double v) {
        long c = count[g]++;
        switch (function) {
            case SUM, AVG -> doubles[g] += v;
            case MIN -> doubles[g] = c == 0 ? v : Math.min(doubles[g], v);
            case MAX -> doubles[g] = c == 0 ? v : Math.max(doubles[g], v);
            default -> { }
        }
    }

    private void addString(int g, StrDict dict, int code) {
        long c = count[g]++;
        if (function == Function.MIN || function == Function.MAX) {
            String v = dict.get(code);
            int cmp = c == 0 ? 0 : StrDict.compare(v, strings[g]);
            if (c == 0 || (function == Function.MIN ? cmp < 0 : cmp > 0)) {
                strings[g] = v;
            }
        }
    }

    /** Adds a value given in key encoding (see {@link KeyEncoder}: doubles as bits, strings as interned codes). */
    void addEncoded(int g, long encoded, StrDict interned) {
        if (isString) {
            addString(g, interned, (int) encoded);
        } else if (isDouble) {
            addDouble(g, argType.kind() == DataType.Kind.DOUBLE ? Double.longBitsToDouble(encoded)
                    : encoded / (double) Decimals.pow10(scale()));
        } else {
            addLong(g, encoded);
        }
    }

    /** Folds group {@code from} of {@code other} into group {@code g}. */
    void merge(int g, Accumulator other, int from) {
        long oc = other.count[from];
        if (oc == 0) {
            return;
        }
        long c = count[g];
        boolean min = function == Function.MIN;
        switch (function) {
            case SUM, AVG -> {
                if (isDouble) {
                    doubles[g] += other.doubles[from];
                } else {
                    longs[g] = sumExact(longs[g], other.longs[from]);
                }
            }
            case MIN, MAX -> {
                if (isString) {
                    String v = other.strings[from];
                    int cmp = c == 0 ? 0 : StrDict.compare(v, strings[g]);
                    if (c == 0 || (min ? cmp < 0 : cmp > 0)) {
                        strings[g] = v;
                    }
                } else if (isDouble) {
                    double v = other.doubles[from];
                    if (c == 0 || (min ? v < doubles[g] : v > doubles[g])) {
                        doubles[g] = v;
                    }
                } else {
                    long v = other.longs[from];
                    if (c == 0 || (min ? v < longs[g] : v > longs[g])) {
                        longs[g] = v;
                    }
                }
            }
            default -> { }
        }
        count[g] = c + oc;
    }

    private long sumExact(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw new ArithmeticException("SUM overflow: the sum exceeds the 64-bit range of " + type);
        }
        return r;
    }

    Vector result(int groups) {
        boolean[] nulls = new boolean[groups];
        boolean anyNull = false;
        if (function == Function.COUNT_STAR || function == Function.COUNT) {
            return Vector.ofLongs(type, Arrays.copyOf(count, groups), null);
        }
        for (int g = 0; g < groups; g++) {
            nulls[g] = count[g] == 0;
            anyNull |= nulls[g];
        }
        boolean[] n = anyNull ? nulls : null;
        if (isString) {
            StrDict.Builder dict = new StrDict.Builder();
            long[] codes = new long[groups];
            for (int g = 0; g < groups; g++) {
                codes[g] = nulls[g] ? 0 : dict.add(strings[g]);
            }
            return Vector.ofCodes(type, codes, n, dict.build());
        }
        if (type.kind() == DataType.Kind.DOUBLE) {
            double[] out = new double[groups];
            // An exact sum is divided once, by the count and its scale together: the double
            // nearest the true average, where dividing by each in turn rounds twice.
            double unit = isDouble ? 1 : Decimals.pow10(scale());
            for (int g = 0; g < groups; g++) {
                double v = isDouble ? doubles[g] : longs[g];
                out[g] = nulls[g] ? 0 : v / (function == Function.AVG ? count[g] * unit : unit);
            }
            return Vector.ofDoubles(out, n);
        }
        long[] out = new long[groups];
        int target = type.kind() == DataType.Kind.DECIMAL ? type.scale() : 0;
        for (int g = 0; g < groups; g++) {
            if (nulls[g]) {
                continue;
            }
            if (isDouble) {
                double v = function == Function.AVG ? doubles[g] / count[g] : doubles[g];
                out[g] = Decimals.roundHalfAway(v * Decimals.pow10(target));
            } else if (function == Function.AVG) {
                out[g] = Decimals.scaledDivide(longs[g], target - scale(), count[g]);
            } else if (type.kind() == DataType.Kind.DATE || type.kind() == DataType.Kind.BOOLEAN) {
                out[g] = longs[g];
            } else {
                out[g] = Decimals.rescale(longs[g], scale(), target);
            }
        }
        return Vector.ofLongs(type, out, n);
    }
}

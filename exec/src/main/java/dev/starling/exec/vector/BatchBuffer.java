package dev.starling.exec.vector;

import dev.starling.exec.plan.Field;
import dev.starling.storage.DataType;
import java.util.Arrays;
import java.util.List;

/**
 * Appends batches into whole-result columns (a materialized intermediate: a hash-join build side,
 * a sort input). A column that the batches leave null (nothing reads it) stays null. VARCHAR columns keep the codes of the first dictionary seen and switch to a merged
 * dictionary, seeded with that one so existing codes stay valid, when a batch brings another.
 */
public final class BatchBuffer {
    private final DataType[] types;
    private final long[][] longs;
    private final double[][] doubles;
    private final boolean[][] nulls;
    private final StrDict[] dicts;
    private final StrDict.Builder[] merged;
    private int rows;
    private int capacity;

    public BatchBuffer(List<Field> fields) {
        int w = fields.size();
        types = new DataType[w];
        longs = new long[w][];
        doubles = new double[w][];
        nulls = new boolean[w][];
        dicts = new StrDict[w];
        merged = new StrDict.Builder[w];
        capacity = 1024;
        for (int c = 0; c < w; c++) {
            types[c] = fields.get(c).type();
            if (types[c].kind() == DataType.Kind.DOUBLE) {
                doubles[c] = new double[capacity];
            } else {
                longs[c] = new long[capacity];
            }
        }
    }

    public int rows() {
        return rows;
    }

    public void append(Batch batch) {
        int n = batch.rows();
        if (n == 0) {
            return;
        }
        ensure(rows + n);
        for (int c = 0; c < types.length; c++) {
            Vector v = batch.column(c);
            if (v == null || (longs[c] == null && doubles[c] == null)) {
                longs[c] = null;
                doubles[c] = null;
                continue;
            }
            if (v.nulls() != null) {
                if (nulls[c] == null) {
                    nulls[c] = new boolean[capacity];
                }
                System.arraycopy(v.nulls(), 0, nulls[c], rows, n);
            }
            if (doubles[c] != null) {
                System.arraycopy(v.doubles(), 0, doubles[c], rows, n);
            } else if (types[c].kind() == DataType.Kind.VARCHAR) {
                appendCodes(c, v, n);
            } else {
                System.arraycopy(v.longs(), 0, longs[c], rows, n);
            }
        }
        rows += n;
    }

    private void appendCodes(int c, Vector v, int n) {
        if (merged[c] == null && (dicts[c] == null || dicts[c] == v.dict())) {
            dicts[c] = v.dict();
            System.arraycopy(v.longs(), 0, longs[c], rows, n);
            return;
        }
        if (merged[c] == null) {
            merged[c] = new StrDict.Builder();
            for (int i = 0; i < dicts[c].size(); i++) {
                merged[c].add(dicts[c].get(i));
            }
        }
        int[] map = new int[v.dict().size()];
        Arrays.fill(map, -1);
        long[] src = v.longs();
        long[] dst = longs[c];
        for (int i = 0; i < n; i++) {
            if (v.isNull(i)) {
                continue;
            }
            int code = (int) src[i];
            if (map[code] < 0) {
                map[code] = merged[c].add(v.dict().get(code));
            }
            dst[rows + i] = map[code];
        }
    }

    private void ensure(int needed) {
        if (needed <= capacity) {
            return;
        }
        int cap = capacity;
        while (cap < needed) {
            cap = cap > (1 << 29) ? Integer.MAX_VALUE - 8 : cap * 2;
        }
        for (int c = 0; c < types.length; c++) {
            if (longs[c] != null) {
                longs[c] = Arrays.copyOf(longs[c], cap);
            }
            if (doubles[c] != null) {
                doubles[c] = Arrays.copyOf(doubles[c], cap);
            }
            if (nulls[c] != null) {
                nulls[c] = Arrays.copyOf(nulls[c], cap);
            }
        }
        capacity = cap;
    }

    /** Everything appended, as one batch. */
    public Batch toBatch() {
        Vector[] out = new Vector[types.length];
        for (int c = 0; c < out.length; c++) {
            if (longs[c] == null && doubles[c] == null) {
                continue;
            }
            StrDict d = merged[c] != null ? merged[c].build() : dicts[c] != null ? dicts[c] : StrDict.EMPTY;
            out[c] = new Vector(types[c], longs[c], doubles[c], nulls[c],
                    types[c].kind() == DataType.Kind.VARCHAR ? d : null);
        }
        return new Batch(out, rows);
    }

    /** Concatenates batches of the same columns into one. */
    public static Batch concat(List<Field> fields, List<Batch> batches) {
        BatchBuffer b = new BatchBuffer(fields);
        for (Batch batch : batches) {
            b.append(batch);
        }
        return b.toBatch();
    }
}

package dev.starling.exec.vector;

/**
 * A horizontal slice of an intermediate result: one vector per column, all {@code rows} long. A
 * column may be null inside an operator when nothing downstream reads it.
 */
public record Batch(Vector[] columns, int rows) {

    /** Batches of this many rows keep an operator chain's vectors in the CPU caches. */
    public static final int ROWS = 4096;

    public Vector column(int i) {
        return columns[i];
    }

    /** The bytes its values take as the state estimates count them: 8 a value (a long or a double). */
    public long bytes() {
        return bytes(rows, columns.length);
    }

    /** The bytes {@code rows} rows of {@code width} columns take, 8 a value. */
    public static long bytes(long rows, int width) {
        return 8L * rows * width;
    }

    public int width() {
        return columns.length;
    }

    public Batch gather(int[] sel, int n) {
        Vector[] out = new Vector[columns.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = columns[c] == null ? null : columns[c].gather(sel, n);
        }
        return new Batch(out, n);
    }

    public Batch slice(int from, int to) {
        Vector[] out = new Vector[columns.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = columns[c] == null ? null : columns[c].slice(from, to);
        }
        return new Batch(out, to - from);
    }
}

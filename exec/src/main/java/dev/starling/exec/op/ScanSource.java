package dev.starling.exec.op;

import dev.starling.exec.QueryContext;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.eval.VecExpr;
import dev.starling.exec.pipeline.Source;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.Table;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A table scan: one morsel per chunk that survives zone-map pruning, read in batches of
 * {@link Batch#ROWS}. With a filter, the columns it reads are loaded first and the other columns
 * only for the rows that pass.
 */
public final class ScanSource implements Source {
    private final ScanNode scan;
    private final ColumnReader[] readers;
    private final int[] chunks;
    private final long[] chunkStarts;
    private final int[] filterColumns;
    private final int[] otherColumns;

    public ScanSource(ScanNode scan, Catalog catalog, QueryContext ctx) {
        this.scan = scan;
        Table table = scan.table();
        this.readers = scan.columns().stream().map(c -> new ColumnReader(table, c, catalog)).toArray(ColumnReader[]::new);
        ZoneMapPruner pruner = new ZoneMapPruner(scan);
        int total = table.chunkCount();
        int[] kept = new int[total];
        int count = 0;
        chunkStarts = new long[total];
        long start = 0;
        for (int c = 0; c < total; c++) {
            chunkStarts[c] = start;
            start += table.chunkRows(c);
            if (pruner.isEmpty() || pruner.mayMatch(scan, c)) {
                kept[count++] = c;
            }
        }
        chunks = Arrays.copyOf(kept, count);
        ctx.addChunksScanned(count);
        ctx.addChunksSkipped(total - count);
        filterColumns = scan.filter() == null ? new int[0] : ExprCompiler.columnsOf(scan.filter());
        otherColumns = java.util.stream.IntStream.range(0, readers.length)
                .filter(i -> Arrays.binarySearch(filterColumns, i) < 0).toArray();
    }

    @Override
    public int morsels() {
        return chunks.length;
    }

    @Override
    public Reader reader() {
        VecExpr filter = scan.filter() == null ? null : ExprCompiler.compile(scan.filter());
        return (morsel, out) -> read(filter, chunks[morsel], out);
    }

    private void read(VecExpr filter, int chunk, Consumer<Batch> out) {
        int rows = scan.table().chunkRows(chunk);
        long chunkStart = chunkStarts[chunk];
        for (int offset = 0; offset < rows; offset += Batch.ROWS) {
            int n = Math.min(Batch.ROWS, rows - offset);
            Vector[] cols = new Vector[readers.length];
            if (filter == null) {
                for (int c = 0; c < cols.length; c++) {
                    cols[c] = readers[c].read(chunk, chunkStart, offset, null, n);
                }
                out.accept(new Batch(cols, n));
                continue;
            }
            for (int c : filterColumns) {
                cols[c] = readers[c].read(chunk, chunkStart, offset, null, n);
            }
            Vector cond = filter.eval(new Batch(cols, n));
            int[] sel = new int[n];
            int selected = Selection.of(cond, n, sel);
            if (selected == 0) {
                continue;
            }
            if (selected == n) {
                for (int c : otherColumns) {
                    cols[c] = readers[c].read(chunk, chunkStart, offset, null, n);
                }
            } else {
                for (int c : filterColumns) {
                    cols[c] = cols[c].gather(sel, selected);
                }
                for (int c : otherColumns) {
                    cols[c] = readers[c].read(chunk, chunkStart, offset, sel, selected);
                }
            }
            out.accept(new Batch(cols, selected));
        }
    }
}

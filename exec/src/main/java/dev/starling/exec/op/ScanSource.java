package dev.starling.exec.op;

import dev.starling.exec.QueryContext;
import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.eval.FilterCompiler;
import dev.starling.exec.eval.SelectionFilter;
import dev.starling.exec.pipeline.MorselDispatcher;
import dev.starling.exec.pipeline.Source;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import dev.starling.storage.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * A table scan: one morsel per chunk that survives zone-map pruning, read in batches of
 * {@link Batch#ROWS}. With a filter, the columns it reads are loaded first and the other columns
 * only for the rows that pass. A scan shared with an accelerator reads the chunks its workers
 * claim from the shared {@link MorselDispatcher} instead of all of them.
 */
public final class ScanSource implements Source {
    private final ScanNode scan;
    private final ColumnReader[] readers;
    private final int[] chunks;
    private final long[] chunkStarts;
    private final int[] filterColumns;
    private final int[] otherColumns;
    private final List<DenseKeyFilter.Pushed> pushed;
    private final MorselDispatcher shared;
    private final BitSet kept = new BitSet();

    /**
     * Reads the columns in {@code needed} (and those the filters read); the others stay null. Rows
     * are also dropped early by {@code pushed}: dense joins above the scan that need a build row.
     * {@code shared}, when not null, hands out the chunks this scan reads.
     */
    public ScanSource(ScanNode scan, Catalog catalog, QueryContext ctx, BitSet needed, List<DenseKeyFilter.Pushed> pushed,
                      MorselDispatcher shared) {
        this.scan = scan;
        this.shared = shared;
        // The most selective joins first; one whose build side covers every code drops nothing.
        this.pushed = pushed.stream().filter(p -> p.table().denseCoverage() < 1)
                .sorted(Comparator.comparingDouble(p -> p.table().denseCoverage())).toList();
        Table table = scan.table();
        BitSet filtered = scan.filter() == null ? new BitSet() : bits(ExprCompiler.columnsOf(scan.filter()));
        this.pushed.forEach(p -> filtered.set(p.column()));
        filterColumns = filtered.stream().toArray();
        BitSet read = (BitSet) needed.clone();
        Arrays.stream(filterColumns).forEach(read::set);
        this.readers = new ColumnReader[scan.columns().size()];
        read.stream().forEach(c -> readers[c] = new ColumnReader(table, scan.columns().get(c), catalog));
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
                this.kept.set(c);
                kept[count++] = c;
            }
        }
        chunks = Arrays.copyOf(kept, count);
        ctx.addChunksScanned(count);
        ctx.addChunksSkipped(total - count);
        otherColumns = needed.stream().filter(i -> Arrays.binarySearch(filterColumns, i) < 0).toArray();
    }

    private static BitSet bits(int[] columns) {
        BitSet b = new BitSet();
        for (int c : columns) {
            b.set(c);
        }
        return b;
    }

    @Override
    public int morsels() {
        // shared: one task per chunk, each claiming whichever chunk is next, if any is left
        return shared == null ? chunks.length : shared.chunks();
    }

    @Override
    public Reader reader() {
        List<SelectionFilter> filters = new ArrayList<>();
        if (scan.filter() != null) {
            filters.add(FilterCompiler.compile(scan.filter()));
        }
        pushed.forEach(p -> filters.add(new DenseKeyFilter(p)));
        SelectionFilter filter = filters.isEmpty() ? null : SelectionFilter.allOf(filters.toArray(SelectionFilter[]::new));
        ChunkCopier copier = new ChunkCopier();
        int[] sel = new int[Batch.ROWS];
        if (shared == null) {
            return (morsel, out) -> read(filter, copier, sel, chunks[morsel], out);
        }
        return (morsel, out) -> {
            int chunk = shared.claim();
            if (chunk >= 0 && kept.get(chunk)) {
                read(filter, copier, sel, chunk, out);
            }
        };
    }

    private void read(SelectionFilter filter, ChunkCopier copier, int[] sel, int chunk, Consumer<Batch> out) {
        int rows = scan.table().chunkRows(chunk);
        long chunkStart = chunkStarts[chunk];
        for (int offset = 0; offset < rows; offset += Batch.ROWS) {
            int n = Math.min(Batch.ROWS, rows - offset);
            Vector[] cols = new Vector[readers.length];
            if (filter == null) {
                for (int c : otherColumns) {
                    cols[c] = readers[c].read(chunk, chunkStart, offset, null, n, copier);
                }
                out.accept(new Batch(cols, n));
                continue;
            }
            for (int c : filterColumns) {
                cols[c] = readers[c].read(chunk, chunkStart, offset, null, n, copier);
            }
            SelectionFilter.identity(sel, n);
            int selected = filter.filter(new Batch(cols, n), sel, n);
            if (selected == 0) {
                continue;
            }
            if (selected == n) {
                for (int c : otherColumns) {
                    cols[c] = readers[c].read(chunk, chunkStart, offset, null, n, copier);
                }
            } else {
                for (int c : filterColumns) {
                    cols[c] = cols[c].gather(sel, selected);
                }
                for (int c : otherColumns) {
                    cols[c] = readers[c].read(chunk, chunkStart, offset, sel, selected, copier);
                }
            }
            out.accept(new Batch(cols, selected));
        }
    }
}

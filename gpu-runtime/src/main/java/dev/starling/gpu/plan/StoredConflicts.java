package dev.starling.gpu.plan;

import dev.starling.gpu.cache.ColumnKey;
import dev.starling.gpu.cuda.BankGeometry;
import dev.starling.gpu.clone.ColumnCodes;
import dev.starling.gpu.clone.ConflictStatistics;
import dev.starling.storage.Column;
import java.lang.ref.ReferenceQueue;
import java.util.HashMap;
import java.util.Map;

/**
 * Columns' shared-memory conflicts as stored, per window, estimated from a column's first
 * {@link #SAMPLE_ROWS} rows once per column version: the clone-layout rule reads them whenever it
 * plans a pipeline, and a full pass over a large column would cost the first query seconds.
 * Entries go with their column versions.
 */
public final class StoredConflicts {
    static final long SAMPLE_ROWS = 1 << 21;

    private final BankGeometry banks;
    private final Map<ColumnKey, ConflictStatistics> statistics = new HashMap<>();
    private final ReferenceQueue<Column> collected = new ReferenceQueue<>();

    public StoredConflicts(BankGeometry banks) {
        this.banks = banks;
    }

    /** {@code column}'s conflicts as stored, under {@code window}. */
    public ConflictStatistics of(Column column, int window) {
        synchronized (statistics) {
            for (var ref = collected.poll(); ref != null; ref = collected.poll()) {
                statistics.remove(ref);
            }
            ConflictStatistics s = statistics.get(new ColumnKey(column, window, null));
            if (s == null) {
                s = ConflictStatistics.of(ColumnCodes.of(column, 0, SAMPLE_ROWS).codes(), banks, window);
                statistics.put(new ColumnKey(column, window, collected), s);
            }
            return s;
        }
    }
}

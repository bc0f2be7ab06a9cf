package dev.starling.gpu.cache;

import dev.starling.storage.Column;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Objects;

/**
 * A map key for something kept per storage column: the column by identity (a table version's
 * column never changes; its record equality would compare its data), held weakly so a dropped or
 * replaced version can be collected, and {@code derived}, null for the column itself or what
 * identifies the data derived from it (compared by value).
 */
public final class ColumnKey extends WeakReference<Column> {
    private final Object derived;
    private final int hash;

    /** {@code queue}: where the key is enqueued once its column is collected (null for a key only looked up with). */
    public ColumnKey(Column column, Object derived, ReferenceQueue<Column> queue) {
        super(column, queue);
        this.derived = derived;
        hash = System.identityHashCode(column) * 31 + Objects.hashCode(derived);
    }

    @Override
    public boolean equals(Object o) {
        return o == this || (o instanceof ColumnKey k && k.get() != null && k.get() == get()
                && Objects.equals(k.derived, derived));
    }

    @Override
    public int hashCode() {
        return hash;
    }
}

package dev.starling.gpu.pipeline;

import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.SortNode;
import dev.starling.storage.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The order of the sort a selection's rows feed, applied on the device before they come back
 * ({@link DeviceRowSort}): the rows in the order of {@code keys}, and of those only rows
 * {@code [offset, offset + limit)} ({@code limit < 0}: all from {@code offset}), so that the sort
 * above has nothing left to do. Every key is a column the kernel writes: a number, date or boolean
 * it computes, or a fact string column's codes (ordered by their strings' ranks); a constant key
 * orders nothing and is left out. A dimension's column, gathered on the host after the rows come
 * back, cannot be sorted by there.
 */
public record RowSort(List<Key> keys, long offset, long limit) {

    /** What a key's words hold of its column's values; the ordinals are {@code row_sort.cu}'s {@code WORD_*}. */
    public enum Word { INTEGRAL, FLOATING, RANKED }

    /**
     * A sort key over the pipeline's output {@code output}: its direction, where its NULLs go,
     * whether it may hold any ({@code nullable}), and how its values become words.
     */
    public record Key(int output, boolean descending, boolean nullsFirst, boolean nullable, Word word) { }

    public RowSort {
        keys = List.copyOf(keys);
    }

    /** The order {@code sort} gives the rows of {@code pipeline}, a selection, when the device can apply it. */
    public static Optional<RowSort> of(StarPipeline pipeline, SortNode sort) {
        List<Key> keys = new ArrayList<>();
        for (SortNode.SortKey k : sort.keys()) {
            Field field = pipeline.node().output().get(k.column());
            Word word = switch (pipeline.outputs().get(k.column())) {
                case StarPipeline.Output.Value v -> v.type().kind() == DataType.Kind.DOUBLE ? Word.FLOATING : Word.INTEGRAL;
                case StarPipeline.Output.Codes c -> Word.RANKED;
                case StarPipeline.Output.DimensionValue d -> null;
                case StarPipeline.Output.Constant c -> Word.INTEGRAL;
            };
            if (word == null) {
                return Optional.empty();
            }
            if (!(pipeline.outputs().get(k.column()) instanceof StarPipeline.Output.Constant)) {
                keys.add(new Key(k.column(), k.descending(), k.nullsFirst(), field.nullable(), word));
            }
        }
        return Optional.of(new RowSort(keys, sort.offset(), sort.limit()));
    }

    /** Of {@code n} sorted rows, the index of the first that comes back. */
    long first(long n) {
        return Math.min(offset, n);
    }

    /** Of {@code n} sorted rows, how many come back (from {@link #first}). */
    long count(long n) {
        long from = first(n);
        return limit < 0 ? n - from : Math.min(n - from, limit);
    }

    /** For EXPLAIN. */
    public String describe() {
        String back = limit >= 0 && offset == 0 ? ", the first " + limit
                : limit >= 0 ? ", rows " + (offset + 1) + " to " + (offset + limit)
                : offset > 0 ? ", rows from " + (offset + 1) : "";
        return "its rows sorted on the GPU" + (back.isEmpty() ? "" : back + " coming back");
    }
}

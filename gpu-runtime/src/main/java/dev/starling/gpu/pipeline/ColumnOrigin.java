package dev.starling.gpu.pipeline;

import dev.starling.storage.DataType;

/** Where a column of a star pipeline comes from: the fact table's scan or a dimension's build rows. */
sealed interface ColumnOrigin {
    DataType type();

    /** Column {@code tableColumn} of the fact table, as stored or (CODE) as a dense code. */
    record Fact(int tableColumn, DataType type, boolean nullable) implements ColumnOrigin { }

    /**
     * The key values of dense-coded foreign key column {@code tableColumn} of the fact table: the
     * referenced table's key at each row's code.
     */
    record FactKey(int tableColumn, DataType type, boolean nullable) implements ColumnOrigin { }

    /**
     * The row index of the scanned table (a {@code ROW_ID} scan column): where a dimension built
     * on the GPU writes its row, never loaded by the program.
     */
    record RowId(DataType type) implements ColumnOrigin { }

    /**
     * Column {@code buildColumn} of the rows of dimension {@code dimension} (of folded groups, of
     * the aggregation's output, {@link StarPipeline.Dimension#folded}); with {@code fold}
     * (else null), the fold of the build rows at the code that its build writes: of a dimension of
     * extremes (MIN_I, MAX_I), the least or greatest value of that column, the fold's identity
     * where no row is; of an aggregation's groups folded at their codes, that aggregate's value
     * (COUNT, SUM_I, MIN_I, MAX_I).
     */
    record Dim(int dimension, int buildColumn, DataType type, boolean nullable, AggKind fold) implements ColumnOrigin {
        Dim(int dimension, int buildColumn, DataType type, boolean nullable) {
            this(dimension, buildColumn, type, nullable, null);
        }
    }
}

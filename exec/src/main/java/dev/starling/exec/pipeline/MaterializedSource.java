package dev.starling.exec.pipeline;

import dev.starling.exec.vector.Batch;
import java.util.function.Consumer;

/** A result held in memory (an aggregation's groups, sorted rows, literal rows) served in batch-sized morsels. */
public final class MaterializedSource implements Source {
    private final Batch data;

    public MaterializedSource(Batch data) {
        this.data = data;
    }

    @Override
    public int morsels() {
        return (data.rows() + Batch.ROWS - 1) / Batch.ROWS;
    }

    @Override
    public Reader reader() {
        return this::read;
    }

    private void read(int morsel, Consumer<Batch> out) {
        int from = morsel * Batch.ROWS;
        int to = Math.min(data.rows(), from + Batch.ROWS);
        out.accept(from == 0 && to == data.rows() ? data : data.slice(from, to));
    }
}

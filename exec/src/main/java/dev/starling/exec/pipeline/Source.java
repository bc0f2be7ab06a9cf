package dev.starling.exec.pipeline;

import dev.starling.exec.vector.Batch;
import java.util.function.Consumer;

/** The start of a pipeline, cut into morsels that workers claim one at a time. */
public interface Source {
    int morsels();

    /** One worker's reader (it may keep per-worker state such as a compiled filter). */
    Reader reader();

    interface Reader {
        /** Emits the batches of one morsel, in order. */
        void read(int morsel, Consumer<Batch> out);
    }
}

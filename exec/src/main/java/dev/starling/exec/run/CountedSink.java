package dev.starling.exec.run;

import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.vector.Batch;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** {@code sink}, counting the rows its workers hand it. */
final class CountedSink<L> implements Sink<L> {
    private final Sink<L> sink;
    private final AtomicLong rows = new AtomicLong();

    CountedSink(Sink<L> sink) {
        this.sink = sink;
    }

    long rows() {
        return rows.get();
    }

    @Override
    public L createLocal() {
        return sink.createLocal();
    }

    @Override
    public void accept(L local, Batch batch) {
        rows.addAndGet(batch.rows());
        sink.accept(local, batch);
    }

    @Override
    public long held(L local) {
        return sink.held(local);
    }

    @Override
    public void finish(List<L> locals) {
        sink.finish(locals);
    }

    @Override
    public long heldWhenFinished() {
        return sink.heldWhenFinished();
    }

    @Override
    public boolean waitsOnConsumer() {
        return sink.waitsOnConsumer();
    }
}

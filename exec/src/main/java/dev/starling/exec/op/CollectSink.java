package dev.starling.exec.op;

import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import java.util.ArrayList;
import java.util.List;

/** Keeps a pipeline's whole output as one batch. */
public final class CollectSink implements Sink<List<Batch>> {
    private final List<Field> fields;
    private Batch result;

    public CollectSink(List<Field> fields) {
        this.fields = fields;
    }

    @Override
    public List<Batch> createLocal() {
        return new ArrayList<>();
    }

    @Override
    public void accept(List<Batch> local, Batch batch) {
        local.add(batch);
    }

    @Override
    public void finish(List<List<Batch>> locals) {
        List<Batch> all = new ArrayList<>();
        locals.forEach(all::addAll);
        result = BatchBuffer.concat(fields, all);
    }

    public Batch result() {
        return result;
    }
}

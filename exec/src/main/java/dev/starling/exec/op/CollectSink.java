package dev.starling.exec.op;

import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.plan.Field;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import java.util.ArrayList;
import java.util.List;

/** Keeps a pipeline's whole output as one batch. */
public final class CollectSink implements Sink<CollectSink.Rows> {
    private final List<Field> fields;
    private Batch result;

    public CollectSink(List<Field> fields) {
        this.fields = fields;
    }

    /** One worker's batches. */
    public static final class Rows {
        final List<Batch> batches = new ArrayList<>();
        long rows;
    }

    @Override
    public Rows createLocal() {
        return new Rows();
    }

    @Override
    public void accept(Rows local, Batch batch) {
        local.batches.add(batch);
        local.rows += batch.rows();
    }

    @Override
    public long held(Rows local) {
        return Batch.bytes(local.rows, fields.size());
    }

    @Override
    public void finish(List<Rows> locals) {
        List<Batch> all = new ArrayList<>();
        locals.forEach(local -> all.addAll(local.batches));
        result = BatchBuffer.concat(fields, all);
    }

    @Override
    public long heldWhenFinished() {
        return result.bytes();
    }

    public Batch result() {
        return result;
    }
}

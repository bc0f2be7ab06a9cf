package dev.starling.exec.op;

import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.vector.Batch;
import java.util.List;

/**
 * Collects a join's build side (a {@code markProbe} join's probe side) from all workers and builds
 * the {@link JoinTable} over it.
 */
public final class JoinBuildSink implements Sink<CollectSink.Rows> {
    private final HashJoinNode join;
    private final CollectSink rows;
    private JoinTable table;

    public JoinBuildSink(HashJoinNode join) {
        this.join = join;
        this.rows = new CollectSink(join.markProbe() ? join.probe().output() : join.build().output());
    }

    @Override
    public CollectSink.Rows createLocal() {
        return rows.createLocal();
    }

    @Override
    public void accept(CollectSink.Rows local, Batch batch) {
        rows.accept(local, batch);
    }

    @Override
    public long held(CollectSink.Rows local) {
        return rows.held(local);
    }

    @Override
    public void finish(List<CollectSink.Rows> locals) {
        rows.finish(locals);
        table = join.markProbe() ? JoinTable.overProbeSide(join, rows.result()) : new JoinTable(join, rows.result());
    }

    @Override
    public long heldWhenFinished() {
        return JoinTable.bytesFor(join, rows.result().rows());
    }

    public JoinTable table() {
        return table;
    }
}

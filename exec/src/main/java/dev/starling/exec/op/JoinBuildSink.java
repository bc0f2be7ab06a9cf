package dev.starling.exec.op;

import dev.starling.exec.pipeline.Sink;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.BatchBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects a join's build side (a {@code markProbe} join's probe side) from all workers and builds
 * the {@link JoinTable} over it.
 */
public final class JoinBuildSink implements Sink<List<Batch>> {
    private final HashJoinNode join;
    private JoinTable table;

    public JoinBuildSink(HashJoinNode join) {
        this.join = join;
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
        table = join.markProbe()
                ? JoinTable.overProbeSide(join, BatchBuffer.concat(join.probe().output(), all))
                : new JoinTable(join, BatchBuffer.concat(join.build().output(), all));
    }

    public JoinTable table() {
        return table;
    }
}

package dev.starling.exec.pipeline;

import dev.starling.exec.Executor;
import dev.starling.exec.QueryContext;
import dev.starling.exec.QueryResult;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.BuildRunner;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.vector.Batch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An accelerator for the co-processing tests: it shares every aggregation with the CPU workers and
 * runs nothing alone; what its part does is the test's {@link #share}.
 */
abstract class SharingAccelerator implements Accelerator {
    @Override
    public Placement place(AggregateNode node, Settings settings) {
        return Placement.both("test");
    }

    @Override
    public Optional<Batch> aggregate(AggregateNode node, BuildRunner builds, QueryContext ctx) {
        throw new AssertionError("a shared aggregation does not run on the accelerator alone");
    }

    @Override
    public Placement placeRows(PlanNode top, Settings settings) {
        return Placement.cpu("test");
    }

    @Override
    public Optional<Batch> rows(PlanNode top, BuildRunner builds, QueryContext ctx) {
        return Optional.empty();
    }

    /** {@code plan}'s rows as sorted strings, run on 3 CPU workers with {@code accelerator} (or none). */
    static List<String> sortedRows(PlanNode plan, Accelerator accelerator) {
        try (Executor executor = new Executor(3, null, accelerator)) {
            QueryResult r = executor.collect(plan, new QueryContext(Settings.DEFAULT));
            List<String> rows = new ArrayList<>(r.rows().stream().map(Object::toString).toList());
            rows.sort(Comparator.naturalOrder());
            return rows;
        }
    }
}

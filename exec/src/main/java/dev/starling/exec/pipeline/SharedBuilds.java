package dev.starling.exec.pipeline;

import dev.starling.exec.QueryContext;
import dev.starling.exec.plan.PlanNode;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Where the accelerator hands the CPU workers the join build sides it shares with them during one
 * co-processed aggregation. The CPU side, compiling such a join, waits for its build: the table the
 * accelerator published, or nothing once the accelerator is done without it (it gave up, or the
 * device was busy), and then builds its own. Whatever was published is closed with this.
 */
public final class SharedBuilds implements AutoCloseable {
    private final Map<PlanNode, CompletableFuture<Optional<SharedBuild>>> builds;

    /** An exchange for the join build sides {@code builds} (plan nodes, by identity). */
    public SharedBuilds(List<PlanNode> builds) {
        Map<PlanNode, CompletableFuture<Optional<SharedBuild>>> m = new IdentityHashMap<>();
        builds.forEach(b -> m.put(b, new CompletableFuture<>()));
        this.builds = Collections.unmodifiableMap(m);
    }

    /** The build sides exchanged here. */
    public List<PlanNode> builds() {
        return List.copyOf(builds.keySet());
    }

    /** The accelerator's table for {@code build}; closed at once when the exchange no longer takes it. */
    public void publish(PlanNode build, SharedBuild table) {
        CompletableFuture<Optional<SharedBuild>> f = builds.get(build);
        if (f == null || !f.complete(Optional.of(table))) {
            table.close();
        }
    }

    /** The accelerator is done: the CPU workers build what it did not publish. */
    public void finish() {
        builds.values().forEach(f -> f.complete(Optional.empty()));
    }

    /** The table for {@code build} once the accelerator has published it, or empty once it is done without it. */
    public Optional<SharedBuild> await(PlanNode build, QueryContext ctx) {
        try {
            return builds.get(build).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ctx.cancel();
            throw new IllegalStateException("interrupted while waiting for a shared join table", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Frees the published tables; call once neither processor probes them any more. */
    @Override
    public void close() {
        finish();
        builds.values().forEach(f -> f.join().ifPresent(SharedBuild::close));
    }
}

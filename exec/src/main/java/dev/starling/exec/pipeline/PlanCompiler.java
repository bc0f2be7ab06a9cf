package dev.starling.exec.pipeline;

import dev.starling.exec.QueryContext;
import dev.starling.exec.op.FilterOperator;
import dev.starling.exec.op.HashAggregateSink;
import dev.starling.exec.op.HashJoinProbe;
import dev.starling.exec.op.JoinBuildSink;
import dev.starling.exec.op.JoinTable;
import dev.starling.exec.op.LimitOperator;
import dev.starling.exec.op.ProjectOperator;
import dev.starling.exec.op.ScanSource;
import dev.starling.exec.op.SortSink;
import dev.starling.exec.op.ValuesBatch;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.HashJoinNode;
import dev.starling.exec.plan.LimitNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.plan.UnionNode;
import dev.starling.exec.plan.ValuesNode;
import dev.starling.storage.Catalog;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a plan into pipelines at its breakers. Compiling a node yields the stream that feeds its
 * parent; the pipelines below a breaker (join build sides, aggregation and sort inputs) run to
 * completion during compilation, so every build is finished before a probe pipeline that needs it starts.
 */
public final class PlanCompiler {
    private final PipelineRunner runner;
    private final Catalog catalog;
    private final QueryContext ctx;

    public PlanCompiler(PipelineRunner runner, Catalog catalog, QueryContext ctx) {
        this.runner = runner;
        this.catalog = catalog;
        this.ctx = ctx;
    }

    public Stream compile(PlanNode node) {
        ctx.checkCancelled();
        return switch (node) {
            case ScanNode s -> Stream.of(new ScanSource(s, catalog, ctx), s.output(), false);
            case FilterNode f -> {
                Stream in = compile(f.input());
                yield in.then(() -> new FilterOperator(f.condition()), in.fields());
            }
            case ProjectNode p -> compile(p.input()).then(() -> new ProjectOperator(p.expressions()), p.output());
            case HashJoinNode j -> {
                JoinBuildSink build = new JoinBuildSink(j);
                runner.run(compile(j.build()), build, ctx);
                JoinTable table = build.table();
                yield compile(j.probe()).then(() -> new HashJoinProbe(j, table), j.output());
            }
            case AggregateNode a -> {
                HashAggregateSink sink = new HashAggregateSink(a);
                runner.run(compile(a.input()), sink, ctx);
                yield Stream.of(new MaterializedSource(sink.result()), a.output(), false);
            }
            case SortNode s -> {
                SortSink sink = new SortSink(s);
                runner.run(compile(s.input()), sink, ctx);
                yield Stream.of(new MaterializedSource(sink.result()), s.output(), true);
            }
            case LimitNode l -> {
                Stream in = compile(l.input());
                LimitOperator.Budget budget = new LimitOperator.Budget(l.offset(), l.limit());
                yield in.then(() -> new LimitOperator(budget), in.fields());
            }
            case ValuesNode v -> Stream.of(new MaterializedSource(ValuesBatch.of(v)), v.output(), false);
            case UnionNode u -> {
                List<Part> parts = new ArrayList<>();
                for (PlanNode input : u.inputs()) {
                    parts.addAll(compile(input).parts());
                }
                yield new Stream(parts, u.output(), false);
            }
        };
    }
}

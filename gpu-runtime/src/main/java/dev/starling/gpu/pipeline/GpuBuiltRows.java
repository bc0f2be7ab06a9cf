package dev.starling.gpu.pipeline;

import dev.starling.exec.eval.ExprCompiler;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.op.ScanRows;
import dev.starling.exec.plan.Field;
import dev.starling.exec.plan.FilterNode;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.vector.Batch;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.Catalog;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Rows of a dimension built on the GPU, read on the host at the table rows its groups name: the
 * build side's columns (one table scanned, filtered and projected) evaluated over just those rows
 * of the table, so that decoding a result touches the rows it returns, not the table.
 */
final class GpuBuiltRows {
    private GpuBuiltRows() { }

    /**
     * Columns {@code columns} of {@code build}'s output (the others null) at table rows {@code rows},
     * which passed its filters; {@code catalog} resolves foreign keys' referenced tables.
     */
    static Batch at(PlanNode build, BitSet columns, long[] rows, Catalog catalog) {
        List<Expr> overScan = overScan(build);
        BitSet read = new BitSet();
        columns.stream().forEach(c -> java.util.Arrays.stream(ExprCompiler.columnsOf(overScan.get(c))).forEach(read::set));
        Batch scanned = ScanRows.at(scan(build), read, rows, catalog);
        Vector[] out = new Vector[overScan.size()];
        columns.stream().forEach(c -> out[c] = ExprCompiler.compile(overScan.get(c)).eval(scanned));
        return new Batch(out, rows.length);
    }

    /** Each output column of {@code node} as an expression over its scan's output. */
    private static List<Expr> overScan(PlanNode node) {
        return switch (node) {
            case ScanNode s -> {
                List<Expr> refs = new ArrayList<>();
                for (Field f : s.output()) {
                    refs.add(new ColumnRef(refs.size(), f.type(), f.nullable()));
                }
                yield refs;
            }
            case FilterNode f -> overScan(f.input());
            case ProjectNode p -> {
                List<Expr> in = overScan(p.input());
                yield p.expressions().stream().map(e -> Expr.substitute(e, in)).toList();
            }
            default -> throw new IllegalStateException("a GPU-built dimension over " + node.describe());
        };
    }

    private static ScanNode scan(PlanNode node) {
        return node instanceof ScanNode s ? s : scan(node.inputs().get(0));
    }
}

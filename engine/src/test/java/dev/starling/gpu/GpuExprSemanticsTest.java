package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.starling.exec.BackendMode;
import dev.starling.exec.QueryContext;
import dev.starling.exec.Settings;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprSemantics;
import dev.starling.exec.plan.ProjectNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.exec.plan.ScanNode.ScanColumn;
import dev.starling.exec.run.Executor;
import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.vector.Vector;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The expression IR's semantics cases on the GPU: each expression runs as a star pipeline's
 * generated row program over a table of the case's columns, placed on the GPU by its planner. A
 * case whose expression the GPU does not run is skipped, naming what it lacks; a case that expects
 * an error must see the GPU hand its pipeline back and the CPU raise it.
 */
@Tag("gpu")
class GpuExprSemanticsTest extends ExprSemantics {
    private static final Settings GPU = Settings.DEFAULT.withBackend(BackendMode.GPU);
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();
    private static Executor executor;

    @BeforeAll
    static void device() {
        executor = new Executor(2, ENGINE.db().catalog(), ENGINE.gpu());
    }

    @AfterAll
    static void close() {
        if (executor != null) {
            executor.close();
        }
    }

    @Override
    protected List<Object> evaluate(Expr e, Vector... columns) {
        Table table = table(columns);
        List<ScanColumn> scanned = new ArrayList<>();
        for (int c = 0; c < columns.length; c++) {
            scanned.add(ScanColumn.value(c));
        }
        ProjectNode plan = new ProjectNode(new ScanNode(table, scanned, null), List.of(e), List.of("v"));
        PipelineGraph graph = PipelineGraph.of(plan, ENGINE.gpu().planner(ENGINE.db().catalog()), GPU);
        PipelineGraph.Pipeline result = graph.pipelines().get(graph.pipelines().size() - 1);
        if (!result.placement().accelerated()) {
            abort("the GPU does not run " + e + ": " + result.placement().reason());
        }
        long baseline = ENGINE.gpu().device().memory().used() - ENGINE.gpu().columnCache().heldBytes();
        QueryContext ctx = new QueryContext(GPU);
        List<Object> out = new ArrayList<>();
        try {
            for (List<Object> row : executor.collect(graph, ctx).rows()) {
                out.add(row.get(0));
            }
        } finally {
            assertEquals(baseline, ENGINE.gpu().device().memory().used() - ENGINE.gpu().columnCache().heldBytes(),
                    "device memory not back to its baseline");
        }
        assertEquals(Map.of(result.id(), "gpu"), ctx.ranOn(), e + ": where the pipeline ran");
        return out;
    }

    private static Table table(Vector... columns) {
        List<ColumnSchema> schema = new ArrayList<>();
        for (int c = 0; c < columns.length; c++) {
            schema.add(new ColumnSchema("c" + c, columns[c].type(), true));
        }
        TableBuilder b = new TableBuilder(new TableSchema("cases", schema, List.of(), List.of()), ENGINE.db().catalog());
        int rows = columns[0].isDouble() ? columns[0].doubles().length : columns[0].longs().length;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns.length; c++) {
                Vector v = columns[c];
                if (v.isNull(r)) {
                    b.setNull(c);
                } else if (v.isDouble()) {
                    b.setDouble(c, v.doubles()[r]);
                } else {
                    b.setLong(c, v.longs()[r]);
                }
            }
            b.endRow();
        }
        return b.build();
    }
}

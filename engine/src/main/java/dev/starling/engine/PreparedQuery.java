package dev.starling.engine;

import dev.starling.exec.run.PipelineGraph;
import dev.starling.exec.plan.Field;
import dev.starling.planner.PlanTemplate;
import dev.starling.exec.plan.PlanNode;
import dev.starling.engine.data.DataStatement;
import dev.starling.storage.DataType;
import java.util.List;

/**
 * A prepared statement: a query's result columns and either the pipeline graph that produces them
 * (the physical plan with each pipeline placed, under the settings it was prepared with) or, for a statement answered while it is prepared (EXPLAIN, ANALYZE CONFLICTS), its rows; or a
 * data statement (no result columns; it reports the rows it wrote). Plans refer to the table versions they were planned against, so a
 * prepared query keeps answering over the data as it was when prepared. A statement with
 * parameter markers ({@code ?}) has their types and no plan until values are bound; a query among
 * them has its {@code template}, optimized with the markers in it. EXPLAIN ANALYZE
 * ({@code analyzes}) holds the graph of the query it runs, and answers with the plan.
 */
public record PreparedQuery(String sql, List<Field> fields, PipelineGraph graph, List<List<Object>> computedRows,
                            DataStatement update, List<DataType> parameters, boolean analyzes, PlanTemplate template) {

    /** The result columns of EXPLAIN and EXPLAIN ANALYZE: the plan, a line a row. */
    public static final List<Field> PLAN = List.of(new Field("plan", DataType.VARCHAR, false));

    public PreparedQuery {
        parameters = List.copyOf(parameters);
    }

    public PreparedQuery(String sql, List<Field> fields, PipelineGraph graph, List<List<Object>> computedRows,
                         DataStatement update, List<DataType> parameters) {
        this(sql, fields, graph, computedRows, update, parameters, false, null);
    }

    /** A query with parameter markers, optimized once with them in it: binding values plans it no further. */
    public static PreparedQuery templated(String sql, PlanTemplate template) {
        return new PreparedQuery(sql, template.fields(), null, null, null, template.parameters(), false, template);
    }

    /**
     * {@code EXPLAIN ANALYZE} of {@code query} (its text {@code sql}): when run, it runs the query's
     * {@code graph} and answers with the plan and what each pipeline did.
     */
    public static PreparedQuery analyzing(String sql, PreparedQuery query) {
        return new PreparedQuery(sql, PLAN, query.graph(), null, null, query.parameters(), true, null);
    }

    /** The physical plan, or null when there is none to run. */
    public PlanNode plan() {
        return graph == null ? null : graph.root();
    }

    /** Whether values must be bound to its {@code ?} markers ({@link Starling#bind}) before it runs. */
    public boolean needsParameters() {
        return !parameters.isEmpty();
    }

    /** Whether its rows were computed when it was prepared (EXPLAIN, ANALYZE CONFLICTS). */
    public boolean isComputed() {
        return computedRows != null;
    }

    /** The one column a data statement answers with when it is run as a query: the rows it wrote. */
    public static final List<Field> ROWS_WRITTEN = List.of(new Field("rows", DataType.BIGINT, false));

    /** A computed result of one row: {@code rows}, under {@link #ROWS_WRITTEN}, for the statement {@code sql}. */
    public static PreparedQuery rowsWritten(String sql, long rows) {
        return new PreparedQuery(sql, ROWS_WRITTEN, null, List.of(List.of(rows)), null, List.of());
    }

    public boolean isUpdate() {
        return update != null;
    }

    /** Whether it is a SET, which changes the settings of the session that runs it. */
    public boolean isSet() {
        return update instanceof DataStatement.SetOption;
    }
}

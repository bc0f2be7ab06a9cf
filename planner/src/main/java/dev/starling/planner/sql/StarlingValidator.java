package dev.starling.planner.sql;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;

/**
 * Calcite's validator, but for the one question it asks once per select item: whether the SELECT
 * aggregates. Each answer walks the whole select list, so validating a SELECT (and converting it,
 * which expands the list again) took time quadratic in its width: 10,000 columns took 50 s. Within
 * one pass over a select list ({@link #validateSelectList}, {@link #expandStar}) the answer cannot
 * change, since the pass only reads the list and builds another, so it is found once per pass.
 */
public final class StarlingValidator extends CalciteSqlValidator {
    /** The SELECTs whose select list a pass is over, each with its answer once found (null before). */
    private final Map<SqlSelect, Boolean> inPass = new IdentityHashMap<>();

    public StarlingValidator(SqlOperatorTable operators, CalciteCatalogReader catalogReader, JavaTypeFactory types,
                             Config config) {
        super(operators, catalogReader, types, config);
    }

    @Override
    protected RelDataType validateSelectList(SqlNodeList selectItems, SqlSelect select, RelDataType targetRowType) {
        return overSelectList(select, () -> super.validateSelectList(selectItems, select, targetRowType));
    }

    @Override
    public SqlNodeList expandStar(SqlNodeList selectList, SqlSelect select, boolean includeSystemVars) {
        return overSelectList(select, () -> super.expandStar(selectList, select, includeSystemVars));
    }

    @Override
    public boolean isAggregate(SqlSelect select) {
        if (!inPass.containsKey(select)) {
            return super.isAggregate(select);
        }
        return inPass.computeIfAbsent(select, super::isAggregate);
    }

    private <T> T overSelectList(SqlSelect select, Supplier<T> pass) {
        if (inPass.containsKey(select)) {
            return pass.get();
        }
        inPass.put(select, null);
        try {
            return pass.get();
        } finally {
            inPass.remove(select);
        }
    }
}

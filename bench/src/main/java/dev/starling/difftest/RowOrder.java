package dev.starling.difftest;

import dev.starling.planner.SqlPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * What a query promises about the order of its rows: the output columns of its outermost ORDER BY
 * (empty when it has none), its LIMIT and whether it has an OFFSET. Rows that tie on every key may
 * come in any order, and when a LIMIT or OFFSET cuts through a group of ties, any of the tied rows
 * may be the ones returned.
 *
 * @param ordered whether the query has an outermost ORDER BY
 * @param keys    the output column indexes of the ORDER BY keys
 * @param limit   the LIMIT, or -1 when there is none
 * @param offset  whether rows are skipped (OFFSET other than 0)
 */
public record RowOrder(boolean ordered, List<Integer> keys, long limit, boolean offset) {

    public static final RowOrder UNORDERED = new RowOrder(false, List.of(), -1, false);

    /**
     * Reads the outermost ORDER BY and LIMIT of {@code sql}, resolving each key to one of
     * {@code columns} (the result's column names) by name or ordinal. A key that is not an output
     * column (an expression, or a column that is not selected) is rejected: the order of the
     * result could not be checked.
     */
    public static RowOrder of(String sql, List<String> columns) {
        SqlNode query = parse(sql);
        if (query instanceof SqlWith with) {
            query = with.body;
        }
        SqlNodeList orderList;
        SqlNode fetch;
        SqlNode offset;
        switch (query) {
            case SqlOrderBy ob -> {
                orderList = ob.orderList;
                fetch = ob.fetch;
                offset = ob.offset;
            }
            case SqlSelect select -> {
                orderList = select.getOrderList();
                fetch = select.getFetch();
                offset = select.getOffset();
            }
            default -> {
                return UNORDERED;
            }
        }
        long limit = fetch instanceof SqlNumericLiteral n ? n.longValue(true) : -1;
        boolean skips = offset != null && !(offset instanceof SqlNumericLiteral n && n.longValue(true) == 0);
        if (orderList == null || orderList.isEmpty()) {
            return new RowOrder(false, List.of(), limit, skips);
        }
        List<Integer> keys = new ArrayList<>();
        for (SqlNode item : orderList) {
            keys.add(resolve(item, columns));
        }
        return new RowOrder(true, List.copyOf(keys), limit, skips);
    }

    private static SqlNode parse(String sql) {
        SqlParser parser = SqlParser.create(sql, SqlPlanner.parserConfig());
        try {
            return parser.parseQuery();
        } catch (SqlParseException e) {
            throw new IllegalArgumentException("cannot read the ORDER BY of: " + sql + "\n" + e.getMessage(), e);
        }
    }

    private static int resolve(SqlNode item, List<String> columns) {
        SqlNode key = item;
        while (key.getKind() == SqlKind.DESCENDING || key.getKind() == SqlKind.NULLS_FIRST
                || key.getKind() == SqlKind.NULLS_LAST) {
            key = ((SqlCall) key).operand(0);
        }
        if (key instanceof SqlNumericLiteral ordinal) {
            int i = ordinal.intValue(true) - 1;
            if (i < 0 || i >= columns.size()) {
                throw new IllegalArgumentException("ORDER BY ordinal " + (i + 1) + " is out of range");
            }
            return i;
        }
        if (key instanceof SqlIdentifier id) {
            String name = id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT);
            int found = -1;
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).toLowerCase(Locale.ROOT).equals(name)) {
                    if (found >= 0) {
                        throw new IllegalArgumentException("ORDER BY key " + id + " matches two output columns");
                    }
                    found = c;
                }
            }
            if (found >= 0) {
                return found;
            }
        }
        throw new IllegalArgumentException("ORDER BY key " + key + " is not an output column " + columns
                + ": the order of the result cannot be checked; order by a selected column or an ordinal");
    }
}

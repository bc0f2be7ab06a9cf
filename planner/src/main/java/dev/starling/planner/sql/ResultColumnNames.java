package dev.starling.planner.sql;

import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * Names for the result columns a query leaves unnamed, which Calcite would call {@code EXPR$0},
 * {@code EXPR$1}: a function or aggregate call is named by its function ({@code count},
 * {@code sum}, {@code upper}, as PostgreSQL names them), anything else by its text as written
 * ({@code n_regionkey + 1}, {@code CAST(x AS BIGINT)}, {@code 1}, as DuckDB does). A name the
 * result already has, or that the query's GROUP BY, HAVING or ORDER BY writes as a plain name
 * (which the lenient conformance would then read as this column), gets a number ({@code sum_2}).
 * The columns named are those a result shows: the outermost query's (its first branch's for a set
 * operation, which names the result), under WITH and ORDER BY, and, since a {@code *} shows them
 * too, those of the queries its FROM clauses and WITH items read.
 */
public final class ResultColumnNames {
    /** The longest name taken from an expression's text. */
    private static final int LONGEST = 64;

    private final String sql;
    /** Where each line of {@code sql} starts. */
    private final int[] lineStarts;

    private ResultColumnNames(String sql) {
        this.sql = sql;
        this.lineStarts = starts(sql);
    }

    /** {@code parsed} (from {@code sql}) with its unnamed result columns named. */
    public static SqlNode name(String sql, SqlNode parsed) {
        new ResultColumnNames(sql).nameColumnsOf(parsed, new HashSet<>());
        return parsed;
    }

    /** Names the result columns of {@code query}; {@code written}: plain names an enclosing ORDER BY writes. */
    private void nameColumnsOf(SqlNode query, Set<String> written) {
        switch (query) {
            case SqlOrderBy o -> {
                Set<String> names = new HashSet<>(written);
                collectNames(o.orderList, names);
                nameColumnsOf(o.query, names);
            }
            case SqlWith w -> {
                w.withList.forEach(item -> nameColumnsOf(((SqlWithItem) item).query, new HashSet<>()));
                nameColumnsOf(w.body, written);
            }
            case SqlSelect s -> {
                nameReadQueries(s.getFrom());
                nameItems(s, written);
            }
            case SqlBasicCall c when c.getKind().belongsTo(SqlKind.SET_QUERY) -> nameColumnsOf(c.operand(0), written);
            default -> { }
        }
    }

    /** Names the result columns of the queries that FROM clause {@code from} reads. */
    private void nameReadQueries(SqlNode from) {
        switch (from) {
            case null -> { }
            case SqlJoin j -> {
                nameReadQueries(j.getLeft());
                nameReadQueries(j.getRight());
            }
            case SqlBasicCall c when c.getKind() == SqlKind.AS -> nameReadQueries(c.operand(0));
            default -> nameColumnsOf(from, new HashSet<>());
        }
    }

    private void nameItems(SqlSelect select, Set<String> written) {
        SqlNodeList items = select.getSelectList();
        Set<String> taken = new HashSet<>(written);
        collectNames(select.getGroup(), taken);
        collectNames(select.getHaving(), taken);
        collectNames(select.getOrderList(), taken);
        for (SqlNode item : items) {
            given(item).ifPresent(n -> taken.add(n.toLowerCase(Locale.ROOT)));
        }
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            if (given(item).isEmpty() && !(item instanceof SqlIdentifier)) {
                items.set(i, SqlValidatorUtil.addAlias(item, unique(derive(item), taken)));
            }
        }
    }

    /** The name a select item has: its alias, or a column reference's column (a star has none). */
    private static Optional<String> given(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            return Optional.of(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple());
        }
        return item instanceof SqlIdentifier id && !id.isStar() ? Optional.of(id.names.get(id.names.size() - 1))
                : Optional.empty();
    }

    private String derive(SqlNode item) {
        if (item instanceof SqlCall call && call.getOperator() instanceof SqlFunction f && call.getKind() != SqlKind.CAST) {
            return f.getName().toLowerCase(Locale.ROOT);
        }
        String text = text(item).replaceAll("\\s+", " ").strip();
        return text.length() > LONGEST ? text.substring(0, LONGEST) : text;
    }

    /** {@code name}, or it numbered past the names {@code taken}, which it then joins. */
    private static String unique(String name, Set<String> taken) {
        String candidate = name;
        for (int n = 2; taken.contains(candidate.toLowerCase(Locale.ROOT)); n++) {
            candidate = name + "_" + n;
        }
        taken.add(candidate.toLowerCase(Locale.ROOT));
        return candidate;
    }

    /** The text of {@code node} as the query writes it (as Calcite prints it where it has no place there). */
    private String text(SqlNode node) {
        SqlParserPos pos = node.getParserPosition();
        if (pos.getLineNum() < 1 || pos.getEndLineNum() > lineStarts.length) {
            return node.toString();
        }
        int from = lineStarts[pos.getLineNum() - 1] + pos.getColumnNum() - 1;
        int to = lineStarts[pos.getEndLineNum() - 1] + pos.getEndColumnNum();
        return from >= 0 && from < to && to <= sql.length() ? sql.substring(from, to) : node.toString();
    }

    /** Adds to {@code names} the plain names (lower case) that {@code node} writes. */
    private static void collectNames(SqlNode node, Set<String> names) {
        if (node == null) {
            return;
        }
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (id.isSimple()) {
                    names.add(id.getSimple().toLowerCase(Locale.ROOT));
                }
                return null;
            }
        });
    }

    private static int[] starts(String sql) {
        int[] starts = new int[(int) sql.chars().filter(c -> c == '\n').count() + 1];
        for (int i = 0, line = 1; i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                starts[line++] = i + 1;
            }
        }
        return starts;
    }
}

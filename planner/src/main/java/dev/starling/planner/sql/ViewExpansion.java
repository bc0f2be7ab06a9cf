package dev.starling.planner.sql;

import dev.starling.planner.schema.CatalogSchema;
import dev.starling.storage.Catalog;
import dev.starling.storage.CatalogNames;
import dev.starling.storage.View;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Puts each view's query in place of its name wherever a query reads it (a FROM item, a join's
 * side), as {@code (query) AS name} with the view's column names, before the query is validated:
 * a view is planned with the query that reads it, its filters pushed into it like any subquery's.
 * A WITH item of the same name hides a view where it is in scope (the query's body, and the items
 * after it); a view that reads itself, however indirectly, is an error. A view's own query reads
 * the catalog's tables whatever WITH items the query reading it has: its table names are qualified
 * with the root schema's, which no WITH item can be. Where the session has a schema ({@code SET
 * schema}), an unqualified name that no WITH item gives is that schema's table or view if it has
 * one of the name; a view's query was qualified so when the view was made ({@link #sessionNames}).
 */
public final class ViewExpansion extends SqlShuttle {
    /** The root schema's name, which qualifies any table. */
    private static final String ROOT = CatalogSchema.NAME;
    private final Function<String, Optional<View>> views;
    /** The schema an unqualified name is looked up in first ("" for none), and whether a table or view has a name. */
    private final String schema;
    private final Predicate<String> named;
    private final Function<String, SqlNode> parser;
    /** Where the query names a table or view that the session's schema gives, in the order met. */
    private final List<SqlParserPos> sessionQualified = new ArrayList<>();
    /** The views being put in place, innermost last. */
    private final Deque<String> expanding;
    /** The names WITH items give in the statements around the node being visited. */
    private final Deque<Set<String>> withNames = new ArrayDeque<>();
    /** Whether this is a view's query, whose unqualified table names are the catalog's. */
    private final boolean insideView;

    private ViewExpansion(Function<String, Optional<View>> views, String schema, Predicate<String> named,
                          Function<String, SqlNode> parser, Deque<String> expanding, boolean insideView) {
        this.views = views;
        this.schema = schema;
        this.named = named;
        this.parser = parser;
        this.expanding = expanding;
        this.insideView = insideView;
    }

    /**
     * {@code query} with the catalog's views in place, its names read in {@code schema} first ("":
     * the default schema only); {@code parser} reads a view's query as a query's text is read.
     */
    public static SqlNode expand(SqlNode query, Catalog catalog, String schema, Function<String, SqlNode> parser) {
        if (catalog.views().isEmpty() && schema.isEmpty()) {
            return query;
        }
        return query.accept(session(catalog, schema, parser));
    }

    /**
     * Where {@code query} names a table or view of {@code schema} without the schema's name, as a
     * view made in a session with that schema is kept with it written out.
     */
    public static List<SqlParserPos> sessionNames(SqlNode query, Catalog catalog, String schema,
                                                 Function<String, SqlNode> parser) {
        ViewExpansion expansion = session(catalog, schema, parser);
        query.accept(expansion);
        return expansion.sessionQualified;
    }

    private static ViewExpansion session(Catalog catalog, String schema, Function<String, SqlNode> parser) {
        return new ViewExpansion(catalog::view, schema, name -> catalog.table(name).isPresent()
                || catalog.view(name).isPresent() || CatalogNames.isInformationSchemaTable(name), parser, new ArrayDeque<>(), false);
    }

    /**
     * Checks that {@code view}, made or replaced in {@code catalog}, does not read itself through
     * the views it reads (an error naming them if it does).
     */
    public static void checkNotCircular(View view, Catalog catalog, Function<String, SqlNode> parser) {
        Function<String, Optional<View>> withIt = name -> name.equals(view.name()) ? Optional.of(view) : catalog.view(name);
        new ViewExpansion(withIt, "", name -> false, parser, new ArrayDeque<>(), false)
                .aliased(view, SqlParserPos.ZERO, List.of());
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlWith with) {
            // an item sees the items before it (and itself when recursive); the body sees them all
            Set<String> names = new HashSet<>();
            withNames.push(names);
            try {
                for (SqlNode node : with.withList) {
                    SqlWithItem item = (SqlWithItem) node;
                    String name = item.name.getSimple().toLowerCase(java.util.Locale.ROOT);
                    if (item.recursive.booleanValue()) {
                        names.add(name);
                    }
                    item.query = item.query.accept(this);
                    names.add(name);
                }
                with.body = with.body.accept(this);
                return with;
            } finally {
                withNames.pop();
            }
        }
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            select.setFrom(fromItem(select.getFrom()));
        }
        return super.visit(call);
    }

    /** A FROM item with the views it names put in place. */
    private SqlNode fromItem(SqlNode item) {
        if (item instanceof SqlJoin join) {
            join.setLeft(fromItem(join.getLeft()));
            join.setRight(fromItem(join.getRight()));
            return join;
        }
        if (item instanceof SqlIdentifier written) {
            SqlIdentifier name = qualified(written).orElse(written);
            Optional<View> v = view(name);
            if (v.isPresent()) {
                return aliased(v.get(), name.getParserPosition(), List.of(new SqlIdentifier(name.names.getLast(),
                        name.getParserPosition())));
            }
            return name == written ? item : SqlStdOperatorTable.AS.createCall(name.getParserPosition(), name,
                    new SqlIdentifier(name.names.getLast(), name.getParserPosition()));
        }
        if (item.getKind() == SqlKind.AS && item instanceof SqlBasicCall as
                && as.operand(0) instanceof SqlIdentifier written) {
            SqlIdentifier name = qualified(written).orElse(written);
            // the alias (and column aliases) the query gives stay; the view's column names go under them
            Optional<View> v = view(name);
            if (v.isPresent()) {
                List<SqlNode> aliases = as.getOperandList().subList(1, as.operandCount());
                return aliased(v.get(), as.getParserPosition(), aliases);
            }
            as.setOperand(0, name);
        }
        return item;
    }

    /**
     * A table or view name that no WITH item gives, qualified: in a view's query with the root
     * schema's name, so that the reader's WITH items cannot stand for it; elsewhere with the
     * session's schema where that has a table or view of the name. Empty when it stays as written.
     */
    private Optional<SqlIdentifier> qualified(SqlIdentifier name) {
        if (name.names.size() != 1 || name.isStar() || givenByWith(name.getSimple())) {
            return Optional.empty();
        }
        String simple = name.getSimple();
        if (insideView) {
            return Optional.of(new SqlIdentifier(List.of(ROOT, simple), name.getParserPosition()));
        }
        if (schema.isEmpty() || !named.test(schema + "." + simple.toLowerCase(java.util.Locale.ROOT))) {
            return Optional.empty();
        }
        sessionQualified.add(name.getParserPosition());
        return Optional.of(new SqlIdentifier(List.of(ROOT, schema, simple), name.getParserPosition()));
    }

    /** Whether a WITH item in scope gives {@code name}. */
    private boolean givenByWith(String name) {
        String key = name.toLowerCase(java.util.Locale.ROOT);
        return withNames.stream().anyMatch(names -> names.contains(key));
    }

    private Optional<View> view(SqlIdentifier name) {
        List<String> parts = name.names;
        if (parts.size() > 1 && parts.getFirst().equalsIgnoreCase(ROOT)) {
            parts = parts.subList(1, parts.size());
        }
        if (parts.size() > 2 || parts.stream().anyMatch(String::isEmpty)) {
            return Optional.empty();
        }
        if (parts.size() == 1 && givenByWith(parts.getFirst())) {
            return Optional.empty();
        }
        return views.apply(String.join(".", parts).toLowerCase(java.util.Locale.ROOT));
    }

    /** {@code (view's query) AS aliases}, the view's own column names applied inside when it has them. */
    private SqlNode aliased(View view, SqlParserPos pos, List<SqlNode> aliases) {
        if (expanding.contains(view.name())) {
            throw new StarlingSqlException("view " + view.name() + " would read itself (through "
                    + String.join(", ", expanding) + ")");
        }
        expanding.addLast(view.name());
        SqlNode query;
        try {
            query = parser.apply(view.sql()).accept(new ViewExpansion(views, "", named, parser, expanding, true));
        } finally {
            expanding.removeLast();
        }
        if (!view.columns().isEmpty()) {
            List<SqlNode> named = new ArrayList<>();
            named.add(query);
            named.add(new SqlIdentifier(CatalogNames.tableOf(view.name()), pos));
            for (String c : view.columns()) {
                named.add(new SqlIdentifier(c, pos));
            }
            // SELECT * FROM (query) AS v (c, ...): the view's names, which the reader's aliases rename
            SqlSelect renamed = new SqlSelect(pos, null, new org.apache.calcite.sql.SqlNodeList(
                    List.of(SqlIdentifier.star(pos)), pos), SqlStdOperatorTable.AS.createCall(pos, named),
                    null, null, null, null, null, null, null, null);
            query = renamed;
        }
        List<SqlNode> operands = new ArrayList<>();
        operands.add(query);
        operands.addAll(aliases);
        return SqlStdOperatorTable.AS.createCall(pos, operands);
    }
}

package dev.starling.bench.fuzz;

import dev.starling.storage.ForeignKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random valid queries over a {@link FuzzSchema}, for differential testing against another engine
 * (plain differential testing, and SQLancer's ternary logic partitioning where a query is the
 * UNION ALL of its rows for which a condition is TRUE, FALSE and NULL). A query joins tables along
 * their foreign keys (inner and LEFT; a join from a key to the rows referencing it only while the
 * rows stay within about twice the largest table's), filters them, and then groups and aggregates (with HAVING), selects rows in an
 * order with a LIMIT, selects DISTINCT rows, or partitions; its WHERE may hold IN, EXISTS,
 * NOT EXISTS, NOT IN and scalar subqueries, correlated or not. Every ORDER BY names its NULLS
 * placement, where the engines' defaults differ. Query {@code n} of a seed is always the same text.
 */
public final class QueryGenerator {
    private static final int MAX_JOINS = 3;
    private static final int DEPTH = 2;

    private final FuzzSchema schema;
    private final long seed;
    /** A join that fans out stops here: about twice the largest table's rows, so answers stay small. */
    private final double maxRows;

    public QueryGenerator(FuzzSchema schema, long seed) {
        this.schema = schema;
        this.seed = seed;
        this.maxRows = 2.0 * schema.tables().stream().mapToLong(FuzzTable::rows).max().orElse(1);
    }

    /** Query number {@code n} of this generator's seed. */
    public String query(long n) {
        return new Generation(new Random(seed * 0x9E3779B97F4A7C15L + n)).query();
    }

    /** A join from a table in scope to another along a foreign key, either way. */
    private record Edge(Scope.Source from, FuzzTable to, List<String> fromColumns, List<String> toColumns, boolean fansOut) { }

    private final class Generation {
        private final Random random;
        private int aliases;

        Generation(Random random) {
            this.random = random;
        }

        String query() {
            int shape = random.nextInt(20);
            StringBuilder from = new StringBuilder();
            Scope scope = from(from);
            Expressions x = new Expressions(random, scope);
            String where = where(x, scope);
            if (shape < 9) {
                return aggregate(x, from, where);
            } else if (shape < 15) {
                return rows(x, from, where);
            } else if (shape < 18) {
                return distinct(x, from, where);
            }
            return partitioned(x, from);
        }

        private String aggregate(Expressions x, StringBuilder from, String where) {
            List<String> select = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            for (int i = 0, n = random.nextInt(4); i < n; i++) {
                String key = x.value(random.nextInt(2)).text();
                keys.add(key);
                select.add(key + " AS c" + select.size());
            }
            for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                select.add(aggregateCall(x) + " AS c" + select.size());
            }
            StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM ").append(from)
                    .append(where);
            if (!keys.isEmpty()) {
                sql.append(" GROUP BY ").append(String.join(", ", keys));
            }
            if (random.nextInt(10) < 3) {
                sql.append(" HAVING ").append(having(x));
            }
            return withOrder(sql, select.size());
        }

        private String aggregateCall(Expressions x) {
            return switch (random.nextInt(7)) {
                case 0 -> "COUNT(*)";
                case 1 -> "COUNT(" + x.value(1) + ")";
                case 2 -> "COUNT(DISTINCT " + x.value(0) + ")";
                case 3 -> "SUM(" + x.numeric(1) + ")";
                case 4 -> "AVG(" + x.numeric(1) + ")";
                case 5 -> "MIN(" + x.value(1) + ")";
                default -> "MAX(" + x.value(1) + ")";
            };
        }

        private String having(Expressions x) {
            if (random.nextBoolean()) {
                return "COUNT(*) > " + random.nextInt(5);
            }
            Sql value = x.numeric(0);
            String call = random.nextBoolean() ? "SUM(" + value + ")" : random.nextBoolean() ? "MIN(" + value + ")" : "MAX(" + value + ")";
            return call + " " + x.pick(List.of("<", ">", ">=", "<>")) + " " + x.literalFor(value);
        }

        private String rows(Expressions x, StringBuilder from, String where) {
            List<String> select = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(5); i < n; i++) {
                select.add(x.value(DEPTH) + " AS c" + i);
            }
            StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM ").append(from)
                    .append(where);
            if (random.nextInt(5) == 0) {
                return sql.toString();
            }
            appendOrder(sql, select.size());
            return sql.append(" LIMIT ").append(1 + random.nextInt(50)).toString();
        }

        private String distinct(Expressions x, StringBuilder from, String where) {
            List<String> select = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                select.add(x.value(1) + " AS c" + i);
            }
            return withOrder(new StringBuilder("SELECT DISTINCT ").append(String.join(", ", select)).append(" FROM ")
                    .append(from).append(where), select.size());
        }

        /**
         * Ternary logic partitioning: the rows for which a condition is TRUE, FALSE and NULL, whose
         * union is every row, counted and summed per key.
         */
        private String partitioned(Expressions x, StringBuilder from) {
            String key = x.value(1).text();
            Sql measure = x.numeric(1);
            String p = x.predicate(DEPTH).text();
            String part = "SELECT " + key + " AS k, " + measure + " AS m FROM " + from + " WHERE ";
            return "SELECT k AS c0, COUNT(*) AS c1, SUM(m) AS c2 FROM (" + part + "(" + p + ") UNION ALL " + part + "NOT ("
                    + p + ") UNION ALL " + part + "(" + p + ") IS NULL) u GROUP BY k";
        }

        private String withOrder(StringBuilder sql, int columns) {
            if (random.nextBoolean()) {
                appendOrder(sql, columns);
                if (random.nextBoolean()) {
                    sql.append(" LIMIT ").append(1 + random.nextInt(20));
                }
            }
            return sql.toString();
        }

        private void appendOrder(StringBuilder sql, int columns) {
            List<String> keys = new ArrayList<>();
            for (int c = 0; c < columns; c++) {
                if (c == 0 || random.nextInt(3) > 0) {
                    keys.add("c" + c + (random.nextBoolean() ? " DESC" : "") + (random.nextBoolean() ? " NULLS FIRST" : " NULLS LAST"));
                }
            }
            sql.append(" ORDER BY ").append(String.join(", ", keys));
        }

        private Scope from(StringBuilder sql) {
            Scope scope = new Scope();
            FuzzTable first = pick(schema.tables());
            String alias = alias();
            scope.add(alias, first, false);
            sql.append(first.name()).append(' ').append(alias);
            double rows = first.rows();
            for (int j = 0, joins = random.nextInt(MAX_JOINS + 1); j < joins; j++) {
                List<Edge> edges = new ArrayList<>(edges(scope));
                double before = rows;
                edges.removeIf(e -> e.fansOut() && before * fanOut(e) > maxRows);
                if (edges.isEmpty()) {
                    break;
                }
                Edge e = pick(edges);
                rows *= e.fansOut() ? fanOut(e) : 1;
                boolean left = random.nextInt(5) == 0;
                String to = alias();
                sql.append(left ? " LEFT JOIN " : " JOIN ").append(e.to().name()).append(' ').append(to).append(" ON ")
                        .append(equalities(e.from().alias(), e.fromColumns(), to, e.toColumns()));
                scope.add(to, e.to(), left || e.from().nullable());
            }
            return scope;
        }

        /** Every join along a foreign key from a table in {@code scope}: to the table it references, and from a table referencing it. */
        private List<Edge> edges(Scope scope) {
            List<Edge> edges = new ArrayList<>();
            for (Scope.Source s : scope.sources()) {
                for (ForeignKey fk : s.table().foreignKeys()) {
                    schema.table(fk.referencedTable()).ifPresent(t ->
                            edges.add(new Edge(s, t, fk.columns(), fk.referencedColumns(), false)));
                }
                for (FuzzTable t : schema.tables()) {
                    for (ForeignKey fk : t.foreignKeys()) {
                        if (fk.referencedTable().equals(s.table().name())) {
                            edges.add(new Edge(s, t, fk.referencedColumns(), fk.columns(), true));
                        }
                    }
                }
            }
            return edges;
        }

        private String where(Expressions x, Scope scope) {
            List<String> conjuncts = new ArrayList<>();
            for (int i = 0, n = random.nextInt(3); i < n; i++) {
                conjuncts.add(x.predicate(DEPTH).text());
            }
            if (random.nextInt(4) == 0) {
                String sub = subquery(x, scope);
                if (sub != null) {
                    conjuncts.add(sub);
                }
            }
            return conjuncts.isEmpty() ? "" : " WHERE " + String.join(" AND ", conjuncts);
        }

        /** A subquery condition on a table of {@code scope}: IN, NOT IN, EXISTS, NOT EXISTS, or a comparison with a scalar. */
        private String subquery(Expressions outer, Scope scope) {
            List<Edge> edges = edges(scope).stream().filter(e -> e.fromColumns().size() == 1).toList();
            if (edges.isEmpty()) {
                return null;
            }
            Edge e = pick(edges);
            Scope inner = new Scope();
            String alias = alias();
            inner.add(alias, e.to(), false);
            Expressions x = new Expressions(random, inner);
            String filter = x.predicate(1).text();
            String outerKey = e.from().alias() + "." + e.fromColumns().get(0);
            String innerKey = alias + "." + e.toColumns().get(0);
            String body = " FROM " + e.to().name() + " " + alias + " WHERE ";
            return switch (random.nextInt(6)) {
                case 0 -> outerKey + " IN (SELECT " + innerKey + body + filter + ")";
                case 1 -> outerKey + " NOT IN (SELECT " + innerKey + body + filter + ")";
                case 2 -> "EXISTS (SELECT *" + body + innerKey + " = " + outerKey + " AND " + filter + ")";
                case 3 -> "NOT EXISTS (SELECT *" + body + innerKey + " = " + outerKey + " AND " + filter + ")";
                case 4 -> {
                    Sql value = x.numeric(0);
                    yield outer.numeric(1) + " " + outer.pick(List.of("<", ">", ">=")) + " (SELECT "
                            + outer.pick(List.of("AVG", "MIN", "MAX", "SUM")) + "(" + value + ")" + body + filter + ")";
                }
                default -> {
                    Sql value = x.numeric(0);
                    yield outer.numeric(0) + " " + outer.pick(List.of("<", ">")) + " (SELECT 0.5 * "
                            + outer.pick(List.of("AVG", "MIN", "MAX")) + "(" + value + ")" + body + innerKey + " = "
                            + outerKey + ")";
                }
            };
        }

        private String equalities(String a, List<String> aColumns, String b, List<String> bColumns) {
            List<String> terms = new ArrayList<>();
            for (int i = 0; i < aColumns.size(); i++) {
                terms.add(a + "." + aColumns.get(i) + " = " + b + "." + bColumns.get(i));
            }
            return String.join(" AND ", terms);
        }

        /** How many rows of the table it joins each row it starts from meets, on average. */
        private static double fanOut(Edge e) {
            return (double) e.to().rows() / Math.max(1, e.from().table().rows());
        }

        private String alias() {
            return "t" + aliases++;
        }

        private <T> T pick(List<T> items) {
            return items.get(random.nextInt(items.size()));
        }
    }
}

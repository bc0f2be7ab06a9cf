package dev.starling.bench.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The tables of one FROM clause, each under its alias; a table on the optional side of a LEFT
 * join gives NULL columns.
 */
final class Scope {
    record Source(String alias, FuzzTable table, boolean nullable) { }

    private final List<Source> sources = new ArrayList<>();

    void add(String alias, FuzzTable table, boolean nullable) {
        sources.add(new Source(alias, table, nullable));
    }

    List<Source> sources() {
        return List.copyOf(sources);
    }

    /** Every column of every source, as a qualified reference. */
    List<Sql> columns(Predicate<FuzzColumn> which) {
        List<Sql> out = new ArrayList<>();
        for (Source s : sources) {
            for (FuzzColumn c : s.table().columns()) {
                if (which.test(c)) {
                    out.add(new Sql(s.alias() + "." + c.name(), c.type().kind(), c.nullable() || s.nullable(), c));
                }
            }
        }
        return out;
    }
}

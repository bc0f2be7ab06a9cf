package dev.starling.difftest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Decides whether two answers to one query are the same: same columns and rows, values compared by
 * {@link Values#same}. Without ORDER BY the rows are compared as multisets (and a LIMIT that cut
 * them leaves only their number to compare). With ORDER BY they are compared in order, except that
 * rows tying on every key form a group compared as a multiset, and a last group cut by the LIMIT or
 * a first one cut by the OFFSET only needs the same keys (SQL lets either engine pick which of the
 * tied rows to return).
 */
public final class ResultComparator {
    private static final int SHOWN_ROWS = 5;

    private final String expectedName;
    private final ResultRows expected;
    private final String actualName;
    private final ResultRows actual;
    private final RowOrder order;

    private ResultComparator(String expectedName, ResultRows expected, String actualName, ResultRows actual,
                             RowOrder order) {
        this.expectedName = expectedName;
        this.expected = expected;
        this.actualName = actualName;
        this.actual = actual;
        this.order = order;
    }

    /** Null when the answers are the same, else a report naming the first differing rows of both sides. */
    public static String difference(String expectedName, ResultRows expected, String actualName, ResultRows actual,
                                    RowOrder order) {
        return new ResultComparator(expectedName, expected, actualName, actual, order).difference();
    }

    private String difference() {
        int columns = expected.columns().size();
        if (actual.columns().size() != columns) {
            return String.format("%s has %d columns %s, %s has %d %s", expectedName, columns, expected.columns(),
                    actualName, actual.columns().size(), actual.columns());
        }
        Comparator<List<Object>> rowOrder = multisetOrder(columns);
        List<List<Object>> e = expected.rows();
        List<List<Object>> a = actual.rows();
        String countNote = e.size() == a.size() ? ""
                : String.format("%s has %d rows, %s has %d; ", expectedName, e.size(), actualName, a.size());
        if (!order.ordered()) {
            if (countNote.isEmpty() && (e.size() == order.limit() || order.offset())) {
                return null; // a LIMIT or OFFSET without ORDER BY may return any of the rows
            }
            List<List<Object>> es = sorted(e, 0, e.size(), rowOrder);
            List<List<Object>> as = sorted(a, 0, a.size(), rowOrder);
            int at = firstDifference(es, as, 0, allColumns(columns));
            return at < 0 && countNote.isEmpty() ? null
                    : report(countNote + "rows compared as multisets (no ORDER BY), sorted", es, as, at);
        }
        int from = 0;
        while (from < e.size() && from < a.size()) {
            int endE = groupEnd(e, from);
            int endA = groupEnd(a, from);
            if (endE != endA || !sameOn(e.get(from), a.get(from), order.keys())) {
                int at = endE == endA ? from : Math.min(endE, endA);
                return report(countNote + "ORDER BY " + keyNames() + " differs", e, a, at);
            }
            boolean cut = (endE == e.size() && e.size() == a.size() && e.size() == order.limit())
                    || (from == 0 && order.offset());
            List<Integer> compared = cut ? order.keys() : allColumns(columns);
            List<List<Object>> eg = sorted(e, from, endE, rowOrder);
            List<List<Object>> ag = sorted(a, from, endA, rowOrder);
            int at = firstDifference(eg, ag, 0, compared);
            if (at >= 0) {
                return report(countNote + "rows " + from + ".." + (endE - 1) + " tie on ORDER BY " + keyNames()
                        + " and are compared as multisets, sorted and numbered from 0", eg, ag, at);
            }
            from = endE;
        }
        return countNote.isEmpty() ? null : report(countNote + "rows in order", e, a, from);
    }

    /** The end of the group of rows that tie with row {@code from} on every ORDER BY key. */
    private int groupEnd(List<List<Object>> rows, int from) {
        int end = from + 1;
        while (end < rows.size() && sameOn(rows.get(from), rows.get(end), order.keys())) {
            end++;
        }
        return end;
    }

    private static boolean sameOn(List<Object> x, List<Object> y, List<Integer> columns) {
        for (int c : columns) {
            if (!Values.same(x.get(c), y.get(c))) {
                return false;
            }
        }
        return true;
    }

    /** The first index where the lists differ on {@code columns}, or where one ends; -1 when equal. */
    private static int firstDifference(List<List<Object>> x, List<List<Object>> y, int from, List<Integer> columns) {
        int n = Math.min(x.size(), y.size());
        for (int i = from; i < n; i++) {
            if (!sameOn(x.get(i), y.get(i), columns)) {
                return i;
            }
        }
        return x.size() == y.size() ? -1 : n;
    }

    /**
     * Sorts on exact columns first and approximate (double) columns last, so rows that agree on
     * their exact values line up even where the engines' doubles differ in the last bits.
     */
    private Comparator<List<Object>> multisetOrder(int columns) {
        List<Integer> exactFirst = new ArrayList<>();
        List<Integer> approximate = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
            (hasDouble(expected, c) || hasDouble(actual, c) ? approximate : exactFirst).add(c);
        }
        exactFirst.addAll(approximate);
        return (x, y) -> {
            for (int c : exactFirst) {
                int cmp = Values.compare(x.get(c), y.get(c));
                if (cmp != 0) {
                    return cmp;
                }
            }
            return 0;
        };
    }

    private static boolean hasDouble(ResultRows rows, int column) {
        return rows.rows().stream().anyMatch(r -> r.get(column) instanceof Double);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows, int from, int to, Comparator<List<Object>> cmp) {
        List<List<Object>> out = new ArrayList<>(rows.subList(from, to));
        out.sort(cmp);
        return out;
    }

    private static List<Integer> allColumns(int columns) {
        return IntStream.range(0, columns).boxed().toList();
    }

    private String keyNames() {
        return order.keys().stream().map(k -> expected.columns().get(k)).toList().toString();
    }

    private String report(String what, List<List<Object>> e, List<List<Object>> a, int at) {
        StringBuilder sb = new StringBuilder(what).append("; first difference at row ").append(at).append('\n');
        sb.append("columns: ").append(expected.columns()).append('\n');
        appendRows(sb, expectedName, e, at);
        appendRows(sb, actualName, a, at);
        return sb.toString();
    }

    private static void appendRows(StringBuilder sb, String name, List<List<Object>> rows, int from) {
        sb.append(name).append(" rows ").append(from).append("..:\n");
        int to = Math.min(rows.size(), Math.max(from, 0) + SHOWN_ROWS);
        for (int i = Math.max(from, 0); i < to; i++) {
            sb.append("  ").append(rows.get(i).stream().map(Values::render).toList()).append('\n');
        }
        if (to == Math.max(from, 0)) {
            sb.append("  (no more rows)\n");
        }
    }
}

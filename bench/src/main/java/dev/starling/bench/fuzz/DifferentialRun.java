package dev.starling.bench.fuzz;

import dev.starling.difftest.ResultComparator;
import dev.starling.difftest.ResultRows;
import dev.starling.difftest.RowOrder;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Runs generated queries on an engine under test and on an oracle and tallies the outcomes,
 * keeping each query that does not pass with what went wrong.
 */
public final class DifferentialRun {
    /** A query that did not pass: its number, text, outcome and the difference or error. */
    public record Failure(long number, String sql, Outcome outcome, String detail) { }

    private final Engine tested;
    private final Engine oracle;
    private final Map<Outcome, Long> tally = new EnumMap<>(Outcome.class);
    private final List<Failure> failures = new ArrayList<>();

    public DifferentialRun(Engine tested, Engine oracle) {
        this.tested = tested;
        this.oracle = oracle;
        for (Outcome o : Outcome.values()) {
            tally.put(o, 0L);
        }
    }

    /** Runs query {@code number}, {@code sql}, on both engines and records its outcome. */
    public Outcome check(long number, String sql) {
        ResultRows expected;
        String oracleError = null;
        try {
            expected = oracle.answer(sql);
        } catch (Exception e) {
            expected = null;
            oracleError = message(e);
        }
        ResultRows actual;
        String testedError = null;
        try {
            actual = tested.answer(sql);
        } catch (Exception | AssertionError | StackOverflowError e) {
            // An Error escaping the engine is its failure, shown as such, not the end of the run.
            actual = null;
            testedError = message(e);
        }
        Outcome outcome;
        String detail = null;
        if (expected == null && actual == null) {
            outcome = Outcome.BOTH_REFUSED;
        } else if (expected == null) {
            outcome = Outcome.ANSWERED_REFUSED;
            detail = oracle.name() + " refused: " + oracleError + "\n" + tested.name() + " answered " + actual.rows().size() + " rows";
        } else if (actual == null) {
            outcome = Outcome.REFUSED;
            detail = tested.name() + " refused: " + testedError;
        } else {
            detail = ResultComparator.difference(oracle.name(), expected, tested.name(), actual,
                    RowOrder.of(sql, actual.columns()));
            outcome = detail == null ? Outcome.AGREE : Outcome.MISMATCH;
        }
        tally.merge(outcome, 1L, Long::sum);
        if (!outcome.passes()) {
            failures.add(new Failure(number, sql, outcome, detail));
        }
        return outcome;
    }

    public Map<Outcome, Long> tally() {
        return Map.copyOf(tally);
    }

    public List<Failure> failures() {
        return List.copyOf(failures);
    }

    /** Each query that did not pass, its number, outcome, text and what went wrong, one after another. */
    public String report() {
        StringBuilder sb = new StringBuilder();
        for (Failure f : failures) {
            sb.append(f.number()).append(' ').append(f.outcome()).append(": ").append(f.sql()).append('\n')
                    .append(f.detail()).append('\n');
        }
        return sb.toString();
    }

    private static String message(Throwable e) {
        String m = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
        return e instanceof Error || e.getMessage() == null ? e.getClass().getName() + ": " + m : m;
    }
}

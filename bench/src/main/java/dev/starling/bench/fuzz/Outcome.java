package dev.starling.bench.fuzz;

/** How one generated query went on the engine under test against the oracle. */
public enum Outcome {
    /** The same answer. */
    AGREE,
    /** Both refused the query (an overflow, say): no answer to compare. */
    BOTH_REFUSED,
    /** Different answers: a wrong one. */
    MISMATCH,
    /** The engine under test failed where the oracle answered. */
    REFUSED,
    /** The engine under test answered where the oracle refused. */
    ANSWERED_REFUSED;

    /** Whether the query passes: the answers agree, or neither engine gives one. */
    public boolean passes() {
        return this == AGREE || this == BOTH_REFUSED;
    }
}

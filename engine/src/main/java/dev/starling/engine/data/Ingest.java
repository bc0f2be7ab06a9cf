package dev.starling.engine.data;

/**
 * A bulk upload's target (Flight SQL's ingest): table {@code table}, made from the upload's Arrow
 * schema where {@code createMissing} and it does not exist; where it exists, {@code ifExists} says
 * whether the rows are appended, replace its rows, or the upload fails.
 */
public record Ingest(String table, boolean createMissing, IfExists ifExists) {
    /** What an upload does to a table that exists. */
    public enum IfExists { FAIL, APPEND, REPLACE }
}

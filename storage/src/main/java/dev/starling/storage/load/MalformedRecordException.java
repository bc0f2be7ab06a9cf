package dev.starling.storage.load;

/** A record that cannot be split into fields; the loader adds the source and column name. */
final class MalformedRecordException extends RuntimeException {
    final long line;
    final int field;

    /** @param field 1-based field number, or 0 for the whole line */
    MalformedRecordException(long line, int field, String problem) {
        super(problem, null, false, false);
        this.line = line;
        this.field = field;
    }
}

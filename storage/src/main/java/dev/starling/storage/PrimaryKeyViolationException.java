package dev.starling.storage;

/** A write that would break a table's primary key (a NULL in it, or a key twice); it changes nothing. */
public final class PrimaryKeyViolationException extends IllegalArgumentException {
    public PrimaryKeyViolationException(String message) {
        super(message);
    }
}

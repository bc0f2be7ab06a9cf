package dev.starling.exec;

/**
 * A value a CAST cannot convert (a string that is no number or date of the target type): a data
 * error of the query (SQL's data exception "invalid character value for cast"), the user's to fix,
 * not a fault of the engine.
 */
public final class InvalidCastException extends RuntimeException {
    public InvalidCastException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.starling.storage;

/** A data directory another process holds: opening it there would let two servers write the same tables. */
public final class DataDirectoryInUseException extends IllegalStateException {
    public DataDirectoryInUseException(String message) {
        super(message);
    }
}

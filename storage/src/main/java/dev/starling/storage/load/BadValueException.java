package dev.starling.storage.load;

/** A field whose text is not a value of its column's type; the loader adds where. */
final class BadValueException extends RuntimeException {
    BadValueException(String problem) {
        super(problem, null, false, false);
    }
}

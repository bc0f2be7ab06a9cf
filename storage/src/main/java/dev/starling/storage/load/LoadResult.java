package dev.starling.storage.load;

/** A committed load: the table, the rows the file added and how long reading and committing took. */
public record LoadResult(String table, long rowsLoaded, double seconds) { }

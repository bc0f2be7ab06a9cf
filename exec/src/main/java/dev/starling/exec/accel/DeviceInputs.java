package dev.starling.exec.accel;

import dev.starling.exec.vector.Batch;
import dev.starling.storage.Catalog;
import dev.starling.storage.Table;
import java.util.List;

/**
 * What an accelerated pipeline reads from the CPU backend, all of it ready before the pipeline
 * starts: the rows of its plan's inputs ({@link DevicePlan#inputs}, run to their end on the CPU as
 * build pipelines are), in that order, and the catalog's tables (a foreign key's referenced key).
 * The accelerator calls nothing back. {@code buildMillis}: how long the CPU took to run them.
 */
public record DeviceInputs(List<Batch> builds, Catalog catalog, double buildMillis) {
    public DeviceInputs {
        builds = List.copyOf(builds);
    }

    /** The version of table {@code name} the query reads. */
    public Table table(String name) {
        if (catalog == null) {
            throw new IllegalStateException("table " + name + " is needed: create the Executor with a Catalog");
        }
        return catalog.require(name);
    }
}

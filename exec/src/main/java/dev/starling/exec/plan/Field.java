package dev.starling.exec.plan;

import dev.starling.storage.DataType;

/** A named, typed output column of a plan node. */
public record Field(String name, DataType type, boolean nullable) { }

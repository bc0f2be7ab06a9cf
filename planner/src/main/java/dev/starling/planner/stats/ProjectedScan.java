package dev.starling.planner.stats;

import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableIntList;
import org.checkerframework.checker.nullness.qual.Nullable;

/** A scan that reads some of its table's columns ({@code projects}), maybe under a filter over them. */
public interface ProjectedScan {
    ImmutableIntList projects();

    @Nullable RexNode filter();
}

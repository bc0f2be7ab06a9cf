package dev.starling.planner.rel;

import dev.starling.planner.translate.Translatable;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/** A physical operator of Starling's own convention; it translates itself into the exec plan contract. */
public interface StarlingRel extends RelNode, Translatable {
    Convention CONVENTION = new Convention.Impl("STARLING", StarlingRel.class);
}

package dev.starling.planner.translate;

import org.apache.calcite.util.ImmutableBitSet;

/** A physical operator that {@link PlanTranslator} turns into Starling's plan: the Starling convention's. */
public interface Translatable {
    /**
     * Translates this operator and its inputs. {@code codes} names output fields whose dense
     * row-index code the consumer would like as well (a foreign key's code or a primary key's row
     * id, the keys of a dense join); an operator provides what it can.
     */
    Translated translate(PlanTranslator translator, ImmutableBitSet codes);

    /**
     * As {@link #translate(PlanTranslator, ImmutableBitSet)}, where the consumer needs only the codes
     * of the fields {@code codeOnly} (a subset of {@code codes}), not their values: an operator that
     * can may leave such a value out, its {@code values} entry then -1. A dense join's probe key is
     * one: the join takes the key's value from the dimension, so the fact scan reads the column once.
     */
    default Translated translate(PlanTranslator translator, ImmutableBitSet codes, ImmutableBitSet codeOnly) {
        return translate(translator, codes);
    }
}

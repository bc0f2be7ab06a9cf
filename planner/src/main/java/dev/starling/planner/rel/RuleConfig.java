package dev.starling.planner.rel;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.tools.RelBuilderFactory;

/** A plain {@link RelRule.Config} for Starling's own rules (Calcite generates its configs with Immutables). */
public record RuleConfig(String description, RelRule.OperandTransform operandSupplier, RelBuilderFactory relBuilderFactory,
                  Function<RuleConfig, RelOptRule> factory) implements RelRule.Config {

    public static RuleConfig of(String description, RelRule.OperandTransform operands, Function<RuleConfig, RelOptRule> factory) {
        return new RuleConfig(description, operands, org.apache.calcite.rel.core.RelFactories.LOGICAL_BUILDER, factory);
    }

    @Override
    public RelOptRule toRule() {
        return factory.apply(this);
    }

    @Override
    public RuleConfig withRelBuilderFactory(RelBuilderFactory f) {
        return new RuleConfig(description, operandSupplier, f, factory);
    }

    @Override
    public RuleConfig withDescription(String d) {
        return new RuleConfig(d, operandSupplier, relBuilderFactory, factory);
    }

    @Override
    public RuleConfig withOperandSupplier(RelRule.OperandTransform t) {
        return new RuleConfig(description, t, relBuilderFactory, factory);
    }
}

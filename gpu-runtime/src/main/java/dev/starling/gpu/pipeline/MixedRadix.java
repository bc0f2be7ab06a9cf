package dev.starling.gpu.pipeline;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.ExprLowering;
import dev.starling.exec.expr.Literal;
import dev.starling.storage.DataType;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Several bounded integers as one: each value less its least one is a digit, and the number is
 * the sum of the digits times their multipliers, the first digit least significant (its multiplier
 * 1, each next one's the product of the ranges before it): one-to-one over values within their
 * ranges. Packed join keys and dimension digits computed from key values are such numbers.
 */
final class MixedRadix {
    private MixedRadix() { }

    /** The multipliers of digits of {@code ranges}; empty when their product, the number's range, passes {@code most}. */
    static Optional<long[]> multipliers(long[] ranges, long most) {
        long[] multipliers = new long[ranges.length];
        long span = 1;
        for (int i = 0; i < ranges.length; i++) {
            multipliers[i] = span;
            if (ranges[i] <= 0 || span > most / ranges[i]) {
                return Optional.empty();
            }
            span *= ranges[i];
        }
        return Optional.of(multipliers);
    }

    /**
     * The number, as a 64-bit expression in explicit form, of values {@code value.apply(i)} with
     * least values {@code min[i]} and {@code multipliers[i]} (from {@link #multipliers}, so that it
     * cannot overflow).
     */
    static Expr number(IntFunction<Expr> value, long[] min, long[] multipliers) {
        Expr sum = null;
        for (int i = 0; i < min.length; i++) {
            Expr v = value.apply(i);
            Expr digit = new Call(Call.Op.SUBTRACT, List.of(v, new Literal(min[i], DataType.BIGINT)), DataType.BIGINT,
                    v.nullable());
            Expr term = multipliers[i] == 1 ? digit : new Call(Call.Op.MULTIPLY,
                    List.of(digit, new Literal(multipliers[i], DataType.BIGINT)), DataType.BIGINT, v.nullable());
            sum = sum == null ? term : new Call(Call.Op.ADD, List.of(sum, term), DataType.BIGINT,
                    sum.nullable() || term.nullable());
        }
        return ExprLowering.lower(sum);
    }

    /** The value of the digit with {@code multiplier}, {@code range} and least value {@code min} in {@code number}. */
    static long value(long number, long multiplier, long range, long min) {
        return min + number / multiplier % range;
    }
}

package dev.starling.exec.pipeline;

import dev.starling.exec.plan.Field;
import java.util.List;

/**
 * A plan compiled up to, not including, its next pipeline breaker: where its batches come from and
 * what streams them. {@code ordered} streams (after a sort) must be consumed morsel by morsel in order.
 */
public record Stream(List<Part> parts, List<Field> fields, boolean ordered) {
    public Stream {
        parts = List.copyOf(parts);
        fields = List.copyOf(fields);
    }

    public static Stream of(Source source, List<Field> fields, boolean ordered) {
        return new Stream(List.of(new Part(source, List.of())), fields, ordered);
    }

    public Stream then(OperatorFactory next, List<Field> outputFields) {
        return new Stream(parts.stream().map(p -> p.then(next)).toList(), outputFields, ordered);
    }
}

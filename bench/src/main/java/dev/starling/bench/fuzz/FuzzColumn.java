package dev.starling.bench.fuzz;

import dev.starling.storage.DataType;
import java.util.List;

/**
 * A column a generated query may read: its name, type, whether it holds NULLs, and values drawn
 * from it (its least and greatest among them), as SQL literals, so predicates hit rows.
 */
public record FuzzColumn(String name, DataType type, boolean nullable, List<String> samples) {
    public FuzzColumn {
        samples = List.copyOf(samples);
    }

    public boolean numeric() {
        return switch (type.kind()) {
            case INTEGER, BIGINT, DECIMAL, DOUBLE -> true;
            default -> false;
        };
    }
}

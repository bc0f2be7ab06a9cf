package dev.starling.storage.gen;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Substitution parameters drawn from one random source: whole numbers in a range, and picks from lists. */
final class ParameterDraws {
    private final Random random;

    ParameterDraws(Random random) {
        this.random = random;
    }

    /** A whole number from {@code least} to {@code most}, both included. */
    int between(int least, int most) {
        return least + random.nextInt(most - least + 1);
    }

    <T> T oneOf(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** {@code count} different values of {@code values}. */
    <T> List<T> distinct(List<T> values, int count) {
        List<T> shuffled = new ArrayList<>(values);
        Collections.shuffle(shuffled, random);
        return shuffled.subList(0, count);
    }

    /** {@code value} as an SQL string literal. */
    static String quoted(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}

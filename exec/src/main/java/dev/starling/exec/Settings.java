package dev.starling.exec;

import java.util.List;
import java.util.Locale;

/**
 * A session's settings for where and how its pipelines run, each changed by {@code SET name =
 * value}: {@code backend} (see {@link BackendMode}); {@code clone_layouts} (auto: the planner
 * decides per column and query whether a clone layout pays; on: wherever one can be used; off:
 * never); {@code clone_budget}, the entries per value a clone layout may take (at least 1);
 * {@code clone_window}, how many preceding warps' chunks a write layout keeps a value's copies
 * apart from; {@code oversized_join}, how a GPU hash join whose table is past the device memory
 * budget runs (see {@link OversizedJoin}).
 */
public record Settings(BackendMode backend, CloneChoice clones, double cloneBudget, int cloneWindow,
                       OversizedJoin oversizedJoin) {
    public static final Settings DEFAULT = new Settings(BackendMode.AUTO, CloneChoice.AUTO, 2, 0, OversizedJoin.AUTO);
    public static final List<String> NAMES = List.of("backend", "clone_layouts", "clone_budget", "clone_window",
            "oversized_join");

    /** Whether a clone layout is used: by the planner's rule, wherever possible, or never. */
    public enum CloneChoice { AUTO, ON, OFF }

    /**
     * A GPU hash join whose table does not fit the device memory budget: as the planner's model
     * predicts faster (auto), with a hybrid table (its first slots on the device, the rest read
     * from host memory over the link), or partitioned (both sides radix-partitioned, partitions
     * spilled to host memory as needed, joined a batch of partitions at a time).
     */
    public enum OversizedJoin { AUTO, HYBRID, PARTITIONED }

    public Settings {
        if (!(cloneBudget >= 1 && cloneBudget <= 64)) {
            throw new IllegalArgumentException("clone_budget must be between 1 and 64 entries per value, not " + cloneBudget);
        }
        if (cloneWindow < 0 || cloneWindow > 64) {
            throw new IllegalArgumentException("clone_window must be between 0 and 64 chunks, not " + cloneWindow);
        }
    }

    public Settings withBackend(BackendMode mode) {
        return new Settings(mode, clones, cloneBudget, cloneWindow, oversizedJoin);
    }

    /** These settings with {@code name} set to {@code value}; an unknown name or a bad value says what is allowed. */
    public Settings with(String name, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "backend" -> withBackend(BackendMode.parse(v));
            case "clone_layouts" -> new Settings(backend, choice(CloneChoice.class, name, v), cloneBudget, cloneWindow,
                    oversizedJoin);
            case "clone_budget" -> new Settings(backend, clones, number(name, v), cloneWindow, oversizedJoin);
            case "clone_window" -> new Settings(backend, clones, cloneBudget, (int) whole(name, v), oversizedJoin);
            case "oversized_join" -> new Settings(backend, clones, cloneBudget, cloneWindow,
                    choice(OversizedJoin.class, name, v));
            default -> throw new IllegalArgumentException("unknown setting '" + name + "': the settings are: "
                    + String.join(", ", NAMES));
        };
    }

    private static <E extends Enum<E>> E choice(Class<E> type, String name, String v) {
        try {
            return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            List<String> allowed = java.util.Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
            throw new IllegalArgumentException(name + " must be one of " + String.join(", ", allowed) + ", not '" + v + "'");
        }
    }

    private static double number(String name, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, not '" + v + "'");
        }
    }

    private static long whole(String name, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, not '" + v + "'");
        }
    }
}

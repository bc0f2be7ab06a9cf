package dev.starling.exec;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session's settings for where and how its pipelines run, each changed by {@code SET name =
 * value}: {@code backend} (see {@link BackendMode}); {@code clone_layouts} (auto: the planner
 * decides per column and query whether a clone layout pays; on: wherever one can be used; off:
 * never); {@code clone_budget}, the entries per value a clone layout may take (at least 1);
 * {@code clone_window}, how many preceding warps' chunks a write layout keeps a value's copies
 * apart from; {@code oversized_join}, how a GPU hash join whose table is past the device memory
 * budget runs (see {@link OversizedJoin}); {@code query_timeout}, how long a query may run before
 * it stops with {@link QueryTimeoutException} (seconds, or a number with {@code ms}, {@code s},
 * {@code min} or {@code h}; 0: no limit); {@code memory_limit}, how much host memory a query's
 * join tables, groups and buffered rows may hold before it stops with
 * {@link QueryMemoryLimitException} (bytes, or a number with KB, MB, GB or TB, powers of 1000, or
 * KiB, MiB, GiB or TiB, powers of 1024; 0: no limit); {@code schema}, the schema whose tables and
 * views an unqualified name means where it has one of that name, and where CREATE puts one ('':
 * the default schema only).
 */
public record Settings(BackendMode backend, CloneChoice clones, double cloneBudget, int cloneWindow,
                       OversizedJoin oversizedJoin, Duration queryTimeout, long memoryLimit, String schema) {
    public static final Settings DEFAULT = new Settings(BackendMode.AUTO, CloneChoice.AUTO, 2, 0, OversizedJoin.AUTO,
            Duration.ZERO, 0, "");
    public static final List<String> NAMES = List.of("backend", "clone_layouts", "clone_budget", "clone_window",
            "oversized_join", "query_timeout", "memory_limit", "schema");
    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_$]*");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)\\s*(ms|s|min|h)?");
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)\\s*(b|kb|mb|gb|tb|kib|mib|gib|tib)?");
    private static final List<String> UNITS = List.of("B", "KB", "MB", "GB", "TB");

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
        if (queryTimeout.isNegative()) {
            throw new IllegalArgumentException("query_timeout cannot be negative, not " + queryTimeout);
        }
        if (memoryLimit < 0) {
            throw new IllegalArgumentException("memory_limit cannot be negative, not " + memoryLimit);
        }
        if (!schema.isEmpty() && !SCHEMA_NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("schema must be a schema's name (letters, digits and _), or '' for the "
                    + "default schema, not '" + schema + "'");
        }
    }

    public Settings withBackend(BackendMode mode) {
        return new Settings(mode, clones, cloneBudget, cloneWindow, oversizedJoin, queryTimeout, memoryLimit, schema);
    }

    /** These settings with unqualified names meaning {@code name}'s tables first ('': the default schema's only). */
    public Settings withSchema(String name) {
        return new Settings(backend, clones, cloneBudget, cloneWindow, oversizedJoin, queryTimeout, memoryLimit, name);
    }

    /**
     * These settings without what leaves a plan as it is (the time and memory limits): what plans
     * are cached and placed under.
     */
    public Settings planning() {
        return queryTimeout.isZero() && memoryLimit == 0 ? this
                : new Settings(backend, clones, cloneBudget, cloneWindow, oversizedJoin, Duration.ZERO, 0, schema);
    }

    /** These settings with {@code name} set to {@code value}; an unknown name or a bad value says what is allowed. */
    public Settings with(String name, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "backend" -> withBackend(BackendMode.parse(v));
            case "clone_layouts" -> new Settings(backend, choice(CloneChoice.class, name, v), cloneBudget, cloneWindow,
                    oversizedJoin, queryTimeout, memoryLimit, schema);
            case "clone_budget" -> new Settings(backend, clones, number(name, v), cloneWindow, oversizedJoin, queryTimeout,
                    memoryLimit, schema);
            case "clone_window" -> new Settings(backend, clones, cloneBudget, (int) whole(name, v), oversizedJoin,
                    queryTimeout, memoryLimit, schema);
            case "oversized_join" -> new Settings(backend, clones, cloneBudget, cloneWindow,
                    choice(OversizedJoin.class, name, v), queryTimeout, memoryLimit, schema);
            case "query_timeout" -> new Settings(backend, clones, cloneBudget, cloneWindow, oversizedJoin, duration(name, v),
                    memoryLimit, schema);
            case "memory_limit" -> new Settings(backend, clones, cloneBudget, cloneWindow, oversizedJoin, queryTimeout,
                    size(name, v), schema);
            case "schema" -> withSchema(v.equals("default") ? "" : v);
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

    /** A length of time as {@link #duration} reads it, in the largest of ms, s and min that keeps it whole. */
    public static String describe(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 != 0 ? ms + " ms" : ms % 60_000 != 0 || ms == 0 ? ms / 1000 + " s" : ms / 60_000 + " min";
    }

    /** A length of time: seconds, or a number with a unit (ms, s, min, h). */
    public static Duration duration(String name, String v) {
        Matcher m = DURATION.matcher(v.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(name + " must be a number of seconds, or a number with ms, s, min or h, "
                    + "not '" + v + "'");
        }
        double millis = Double.parseDouble(m.group(1)) * switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> 1;
            case "min" -> 60_000;
            case "h" -> 3_600_000;
            default -> 1_000;
        };
        if (millis > Long.MAX_VALUE / 2) {
            throw new IllegalArgumentException(name + " is too long: '" + v + "'");
        }
        return Duration.ofMillis(Math.round(millis));
    }

    /** An amount of memory as {@link #size} reads it, in the largest unit of B, KB, MB, GB and TB under it, to 3 digits. */
    public static String describeSize(long bytes) {
        int unit = 0;
        double v = bytes;
        while (v >= 1000 && unit < UNITS.size() - 1) {
            v /= 1000;
            unit++;
        }
        String digits = unit == 0 || v >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, v >= 10 ? "%.1f" : "%.2f", v).replaceAll("\\.?0+$", "");
        return digits + " " + UNITS.get(unit);
    }

    /** An amount of memory: bytes, or a number with KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (of 1024). */
    public static long size(String name, String v) {
        Matcher m = SIZE.matcher(v.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(name + " must be a number of bytes, or a number with KB, MB, GB or TB "
                    + "(or KiB, MiB, GiB, TiB), not '" + v + "'");
        }
        String unit = m.group(2) == null ? "b" : m.group(2);
        double scale = Math.pow(unit.contains("i") ? 1024 : 1000, "bkmgt".indexOf(unit.charAt(0)));
        double bytes = Double.parseDouble(m.group(1)) * scale;
        if (bytes > Long.MAX_VALUE / 2) {
            throw new IllegalArgumentException(name + " is too large: '" + v + "'");
        }
        return Math.round(bytes);
    }

    private static long whole(String name, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, not '" + v + "'");
        }
    }
}

package dev.starling.bench;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the GPU did for one run of a query, as the server's EXPLAIN ANALYZE tells it (so a server
 * in another process tells it too): the kernel time of its GPU pipelines, and their floor, the
 * time their fact columns take to read whole at the device's measured bandwidth.
 */
record GpuAccount(double kernelMillis, double floorMillis) {
    /** The account {@code RunStats.describe} writes into a pipeline's line of EXPLAIN ANALYZE. */
    private static final Pattern KERNEL = Pattern.compile("kernel ([0-9.]+) ms \\(its columns, [^,]+, read whole in ([0-9.]+) ms\\)");

    /** The sums over the GPU pipelines of EXPLAIN ANALYZE's {@code lines}; empty where none ran on the GPU. */
    static Optional<GpuAccount> of(List<String> lines) {
        double kernel = 0;
        double floor = 0;
        boolean any = false;
        for (String line : lines) {
            Matcher m = KERNEL.matcher(line);
            while (m.find()) {
                kernel += Double.parseDouble(m.group(1));
                floor += Double.parseDouble(m.group(2));
                any = true;
            }
        }
        return any ? Optional.of(new GpuAccount(kernel, floor)) : Optional.empty();
    }
}

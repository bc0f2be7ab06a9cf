package dev.starling.gpu.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.gpu.cuda.Nvcc;
import dev.starling.planner.PlanNodes;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.Catalog;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated kernels of every SSB and TPC-H GPU pipeline and of the dimensions they build on
 * the GPU, of a hash join on values and of a foreign key's values read and grouped by, in each
 * accumulator mode, with and without NULL flags, selections cut by an order (keys, then rows),
 * their hash joins probing tables on the device, hybrid ones, or a partitioned join's matches:
 * CUDA C that, where CUDA's {@code nvcc} is installed, compiles against the kernels' headers for
 * the H100 without spilling registers (the GPU host compiles the same source with NVRTC).
 */
class StarKernelSourceTest {
    /** Kernels per compiled file: nvcc's start-up is most of its time on one small kernel. */
    private static final int PER_FILE = 64;

    @TempDir
    Path dir;

    @Test
    void everyPipelineKernelAssembles() throws Exception {
        List<StarPipeline> pipelines = new ArrayList<>();
        try (Starling ssb = Starling.inMemory(); Starling tpch = Starling.inMemory()) {
            SsbGenerator.generate(ssb.catalog(), 0.01, "");
            TpchGenerator.generate(tpch.catalog(), 0.01, "");
            SqlPlanner ssbPlanner = new SqlPlanner(ssb.catalog());
            for (String q : SsbQueries.names()) {
                compileAll(ssbPlanner, ssb.catalog(), SsbQueries.query(q), pipelines);
            }
            int before = pipelines.size();
            pipelines.add(StarPipelineCompiler.compileRows(ssbPlanner.plan("SELECT lo_orderkey, lo_revenue * 2, d_yearmonth, c_city "
                    + "FROM lineorder, dwdate, customer WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey "
                    + "AND lo_discount = 1 AND d_year = 1993").plan(), ssb.catalog()));
            pipelines.add(StarPipelineCompiler.compileRows(ssbPlanner.plan(
                    "SELECT lo_shipmode, lo_quantity, 'x' FROM lineorder WHERE lo_quantity < 3").plan(), ssb.catalog()));
            assertTrue(pipelines.subList(before, pipelines.size()).stream().allMatch(p -> p.outputs().size() >= 3));
            SqlPlanner tpchPlanner = new SqlPlanner(tpch.catalog());
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                compileAll(tpchPlanner, tpch.catalog(), TpchQueries.query(q), pipelines);
            }
            int beforeSnowflake = pipelines.size();
            // the subquery's key is customer's, a dimension probed with a code read from the orders dimension
            for (String exists : List.of("EXISTS", "NOT EXISTS")) {
                compileAll(tpchPlanner, tpch.catalog(), "SELECT COUNT(*) FROM lineitem l1 JOIN orders ON l1.l_orderkey = "
                        + "o_orderkey JOIN customer ON o_custkey = c_custkey WHERE c_mktsegment = 'BUILDING' AND " + exists
                        + " (SELECT * FROM orders o2 WHERE o2.o_custkey = c_custkey AND o2.o_orderdate > l1.l_shipdate)",
                        pipelines);
            }
            assertEquals(beforeSnowflake + 2, pipelines.size(), "joins by the codes a dimension was probed with compile");
        }
        try (Starling own = Starling.inMemory()) {
            own.query("CREATE TABLE h (code INT NOT NULL, name VARCHAR(10), weight DECIMAL(5,2))");
            own.query("CREATE TABLE g (k INT PRIMARY KEY, label VARCHAR(5))");
            own.query("CREATE TABLE f (id BIGINT, n INT, amt DECIMAL(12,2), gk INT REFERENCES g (k))");
            own.query("INSERT INTO h VALUES (0, 'a', 1.5), (1, 'b', NULL), (2, 'c', 2.25)");
            own.query("INSERT INTO g VALUES (10, 'x'), (20, 'y'), (30, 'z')");
            StringBuilder values = new StringBuilder();
            for (int r = 0; r < 200; r++) {
                values.append(r == 0 ? "" : ", ").append('(').append(r).append(", ").append(r % 5 == 4 ? "NULL" : r % 5)
                        .append(", ").append(r * 1.25).append(", ").append(r % 7 == 0 ? "NULL" : 10 * (1 + r % 3)).append(')');
            }
            own.query("INSERT INTO f VALUES " + values);
            SqlPlanner planner = new SqlPlanner(own.catalog());
            int before = pipelines.size();
            compileAll(planner, own.catalog(), "SELECT h.name, SUM(f.amt * h.weight), COUNT(*) FROM f JOIN h ON f.n = h.code GROUP BY h.name",
                    pipelines);
            assertTrue(pipelines.size() == before + 1 && pipelines.get(before).dimensions().get(0).hashed(),
                    "a join on values without a foreign key compiles to a hashed dimension");
            compileAll(planner, own.catalog(), "SELECT gk, COUNT(*), SUM(gk + n) FROM f GROUP BY gk", pipelines);
            assertTrue(pipelines.size() == before + 2 && pipelines.get(before + 1).keys().get(0).referenced()
                    && pipelines.get(before + 1).keyColumns().size() == 1,
                    "a foreign key's values group by their codes and are read through the referenced key");
            pipelines.add(StarPipelineCompiler.compileRows(planner.plan(
                    "SELECT f.id, h.name, f.amt * h.weight, f.gk FROM f JOIN h ON f.n = h.code WHERE f.amt > 10").plan(),
                    own.catalog()));
            int beforeAnti = pipelines.size();
            compileAll(planner, own.catalog(), "SELECT n, COUNT(*) FROM f WHERE NOT EXISTS "
                    + "(SELECT * FROM g WHERE g.k = f.gk AND g.label = 'x') GROUP BY n", pipelines);
            compileAll(planner, own.catalog(), "SELECT COUNT(*) FROM f WHERE NOT EXISTS "
                    + "(SELECT * FROM h WHERE h.code = f.n AND h.name = 'a')", pipelines);
            assertEquals(List.of(false, true), pipelines.subList(beforeAnti, pipelines.size()).stream()
                    .map(p -> p.dimensions().get(0).hashed()).toList(), "ANTI joins probe dense and hashed dimensions");
            int beforeLeft = pipelines.size();
            compileAll(planner, own.catalog(), "SELECT g.label, COUNT(*), SUM(f.amt) FROM f LEFT JOIN g ON f.gk = g.k "
                    + "AND g.label <> 'y' GROUP BY g.label", pipelines);
            compileAll(planner, own.catalog(), "SELECT t.a IS NULL, COUNT(*) FROM g LEFT JOIN "
                    + "(SELECT gk, AVG(amt) AS a FROM f WHERE amt > 20 GROUP BY gk) t ON g.k = t.gk GROUP BY t.a IS NULL",
                    pipelines);
            compileAll(planner, own.catalog(), "SELECT COALESCE(t.c, 0), COUNT(*) FROM g LEFT JOIN "
                    + "(SELECT gk, COUNT(*) AS c FROM f WHERE amt > 20 GROUP BY gk) t ON g.k = t.gk GROUP BY COALESCE(t.c, 0)",
                    pipelines);
            pipelines.add(StarPipelineCompiler.compileRows(planner.plan(
                    "SELECT f.id, g.label, g.k + f.n FROM f LEFT JOIN g ON f.gk = g.k WHERE f.amt > 10").plan(), own.catalog()));
            assertEquals(List.of("dense", "hashed", "folded", "dense"), pipelines.subList(beforeLeft, pipelines.size()).stream()
                    .flatMap(p -> p.dimensions().stream().filter(StarPipeline.Dimension::outer))
                    .map(d -> d.hashed() ? "hashed" : d.foldsGroups() ? "folded" : "dense").toList(),
                    "LEFT joins probe dense, hashed and folded dimensions");
            compileAll(planner, own.catalog(), "SELECT n, COUNT(*), COUNT(amt) FROM f WHERE id > 3 GROUP BY n", pipelines);
            assertTrue(CloneChoice.groupColumn(pipelines.get(pipelines.size() - 1)) >= 0,
                    "counts grouped by an integer column can go through a clone layout");
            int beforeDistinct = pipelines.size();
            compileAll(planner, own.catalog(), "SELECT n, COUNT(DISTINCT id), SUM(DISTINCT amt), AVG(DISTINCT amt * 0.5e0), "
                    + "COUNT(DISTINCT gk) FILTER (WHERE amt > 10) FROM f GROUP BY n", pipelines);
            compileAll(planner, own.catalog(), "SELECT COUNT(DISTINCT n), COUNT(*) FROM f", pipelines);
            assertEquals(List.of(4, 1), pipelines.subList(beforeDistinct, pipelines.size()).stream()
                    .map(p -> StarPipeline.distincts(p.slots()).size()).toList(), "DISTINCT aggregates keep a set each");
        }
        assertTrue(pipelines.size() >= 13 + 8 + 2 + 4 + 3, pipelines.size() + " pipelines");
        List<StarPipeline.Dimension> gpuBuilds = pipelines.stream().flatMap(p -> p.dimensions().stream())
                .filter(StarPipeline.Dimension::builtOnGpu).toList();
        assertTrue(pipelines.stream().anyMatch(p -> p.dimColumns().stream().anyMatch(c -> c.fold() != null)),
                "TPC-H Q21's EXISTS and NOT EXISTS with l_suppkey <> l_suppkey read the extremes of marking builds");
        assertTrue(gpuBuilds.size() >= 10 && gpuBuilds.stream().anyMatch(b -> !b.gpuBuild().outputs().isEmpty())
                && gpuBuilds.stream().anyMatch(b -> b.valueDigit() != null),
                gpuBuilds.size() + " dimensions built on the GPU, some with digits of their keys' values");
        List<String> kernels = new ArrayList<>();
        assertTrue(gpuBuilds.stream().anyMatch(StarPipeline.Dimension::marks),
                "marking joins (TPC-H Q4, Q22) build their marks on the GPU");
        for (StarPipeline p : pipelines) {
            for (int d = 0; d < p.dimensions().size(); d++) {
                StarPipeline.Dimension b = p.dimensions().get(d);
                if (!b.builtOnGpu()) {
                    continue;
                }
                int at = d;
                List<AggKind> folds = p.dimColumns().stream().filter(c -> c.dimension() == at)
                        .map(StarPipeline.DimColumn::fold).filter(java.util.Objects::nonNull).toList();
                int digit = b.valueDigit() == null ? -1 : b.valueDigit().register();
                List<StarPipeline.Output> outputs = b.gpuBuild().outputs();
                int code = b.marks() ? ((StarPipeline.Output.Value) outputs.get(outputs.size() - 1)).register() : -1;
                for (boolean nullable : new boolean[] {false, true}) {
                    kernels.add(StarKernelSource.generate(input(b.gpuBuild(), nullable, StarKernelInput.Accumulators.BY_ROW,
                            false, digit, code, GpuDimensionBuild.marked(b, folds), folds), 4));
                }
            }
        }
        for (StarPipeline p : pipelines) {
            for (boolean nullable : new boolean[] {false, true}) {
                for (StarKernelInput.Accumulators mode : modes(p)) {
                    for (int items : StarKernelSource.ITEMS) {
                        kernels.add(StarKernelSource.generate(input(p, nullable, mode, false, -1, -1, false, List.of()), items));
                    }
                }
            }
            int orderRegister = p.outputs().stream().filter(o -> o instanceof StarPipeline.Output.Value)
                    .mapToInt(o -> ((StarPipeline.Output.Value) o).register()).findFirst().orElse(-1);
            if (!(p.node() instanceof AggregateNode) && orderRegister >= 0) {
                // a selection cut by an order: its keys' pass, and its rows' pass past a threshold
                StarKernelInput rows = input(p, true, StarKernelInput.Accumulators.ROWS, false, -1, -1, false, List.of());
                for (boolean floating : new boolean[] {false, true}) {
                    StarKernelInput.OrderCut cut = new StarKernelInput.OrderCut(orderRegister, !floating, floating, 1L << 40);
                    kernels.add(StarKernelSource.generate(ordered(rows, StarKernelInput.Accumulators.ORDER_KEYS, cut), 4));
                    kernels.add(StarKernelSource.generate(ordered(rows, StarKernelInput.Accumulators.ROWS, cut), 4));
                }
            }
            if (p.dimensions().stream().anyMatch(StarPipeline.Dimension::hashed)) {
                for (int items : StarKernelSource.ITEMS) {
                    kernels.add(StarKernelSource.generate(input(p, true, modes(p).get(0), true, -1, -1, false, List.of()), items));
                }
            }
        }
        for (String k : kernels) {
            assertTrue(k.contains("extern \"C\" __global__ void " + StarKernelSource.ENTRY + "("), k);
            assertEquals(count(k, '{'), count(k, '}'));
            assertEquals(count(k, '('), count(k, ')'));
        }
        compileWhereCudaIsInstalled(kernels);
    }

    private static void compileAll(SqlPlanner planner, Catalog catalog, String sql, List<StarPipeline> out) {
        for (AggregateNode a : PlanNodes.all(planner.plan(sql).plan(), AggregateNode.class)) {
            try {
                out.add(StarPipelineCompiler.compile(a, catalog));
            } catch (Unsupported e) {
                // this aggregation stays on the CPU
            }
        }
    }

    /** The accumulator modes a pipeline's kernel can be generated in. */
    private static List<StarKernelInput.Accumulators> modes(StarPipeline p) {
        if (!(p.node() instanceof AggregateNode)) {
            return List.of(StarKernelInput.Accumulators.ROWS);
        }
        if (p.keys().isEmpty()) {
            return List.of(StarKernelInput.Accumulators.SCALAR);
        }
        List<StarKernelInput.Accumulators> modes = new ArrayList<>(List.of(StarKernelInput.Accumulators.SHARED,
                StarKernelInput.Accumulators.CLONED, StarKernelInput.Accumulators.GLOBAL,
                StarKernelInput.Accumulators.HASHED));
        if (CloneChoice.countsOnly(p)) {
            modes.add(StarKernelInput.Accumulators.COUNTERS);
        }
        return modes;
    }

    /**
     * {@code matched}: hashed dimensions found by a partitioned join beforehand; {@code digit}: a
     * dimension build's digit register, or -1 (its row); {@code at}: a marking build's code register, or -1;
     * {@code marked}: whether it marks the codes; {@code folds}: the folds of a marking build's outputs.
     */
    private static StarKernelInput input(StarPipeline p, boolean nullable, StarKernelInput.Accumulators mode, boolean matched,
                                         int digit, int at, boolean marked, List<AggKind> folds) {
        long nulls = nullable ? 1 : 0;
        List<StarKernelInput.Column> fact = p.factColumns().stream()
                .map(c -> new StarKernelInput.Column(1, nulls, p.fact().column(c).type().physical().width)).toList();
        List<StarKernelInput.Key> keys = p.keyColumns().stream().map(c -> new StarKernelInput.Key(1, 4, 1000)).toList();
        List<StarKernelInput.Key> answers = p.answers().stream().map(a -> new StarKernelInput.Key(1, 1, 1000)).toList();
        // without NULLs, 64-bit group contributions
        boolean wide = !nullable;
        List<StarKernelInput.Dimension> dims = p.dimensions().stream()
                .map(d -> d.hashed()
                        // hash tables in device memory, hybrid ones (part of the slots on the host), partitioned joins' matches
                        ? new StarKernelInput.Dimension(1, d.range(), matched ? StarKernelInput.HashTable.matched(1)
                                : new StarKernelInput.HashTable(1, nulls, 100, 50), -1, null, wide)
                        : new StarKernelInput.Dimension(1, d.range(), wide))
                .toList();
        if (nullable) {
            // the small dense dimensions probed in shared memory, a foreign key's through a read clone layout
            int probe = CloneChoice.probedByForeignKey(p);
            if (probe >= 0) {
                int d = p.code()[probe + 3];
                dims = new ArrayList<>(dims);
                dims.set(d, dims.get(d).withClones(new StarKernelInput.Clones(1, 1, 500)));
            }
            dims = StarKernelInput.stage(dims, 0);
        }
        List<StarKernelInput.Column> dimColumns = p.dimColumns().stream()
                .map(c -> new StarKernelInput.Column(1, nulls, c.expr().type().physical().width)).toList();
        boolean byRow = mode == StarKernelInput.Accumulators.BY_ROW;
        // a selection's outputs 8 bytes a row with NULL flags; a dimension's as wide as their types, flags where NULLs can be
        // a marking build's last output is its code, which it writes at, not out
        List<StarKernelInput.Output> outputs = p.outputs().stream().limit(p.outputs().size() - (at >= 0 ? 1 : 0))
                .filter(o -> !(o instanceof StarPipeline.Output.Constant))
                .map(o -> new StarKernelInput.Output(switch (o) {
                    case StarPipeline.Output.Value v -> v.register();
                    case StarPipeline.Output.Codes c -> c.register();
                    case StarPipeline.Output.DimensionValue d -> d.register();
                    case StarPipeline.Output.Constant c -> -1;
                }, 1, byRow ? nulls : 1, byRow ? o.type().physical().width : 8)).toList();
        // counters per group, and through a clone layout; clones of the states of a few groups
        StarKernelInput.Clones clones = switch (mode) {
            case COUNTERS -> nullable ? StarKernelInput.Clones.perGroup(100) : new StarKernelInput.Clones(1, 1, 300);
            case CLONED -> StarKernelInput.Clones.perLane(12, 16);
            default -> null;
        };
        StarKernelInput.GroupTable table = mode == StarKernelInput.Accumulators.HASHED
                ? new StarKernelInput.GroupTable(1, 57, 256) : null;
        return new StarKernelInput(p.code(), p.constants().length, fact, keys, answers, dims, dimColumns, p.slots(), outputs, mode,
                clones, table, StarPipeline.distincts(p.slots()).stream().map(d -> new StarKernelInput.PairSet(1, 40)).toList(),
                byRow ? new StarKernelInput.RowWrites(1, wide, 3, digit, 7, at, 1000, marked, folds) : null, null, 1, 1, 1, 1000,
                p.keys().isEmpty() ? 1 : 128);
    }

    /** {@code rows}, a selection's input, as the pass of {@code mode} under {@code cut}: ORDER_KEYS writes the keys alone. */
    private static StarKernelInput ordered(StarKernelInput rows, StarKernelInput.Accumulators mode, StarKernelInput.OrderCut cut) {
        List<StarKernelInput.Output> outputs = mode == StarKernelInput.Accumulators.ORDER_KEYS
                ? List.of(new StarKernelInput.Output(cut.register(), 1, 0, 8)) : rows.outputs();
        return new StarKernelInput(rows.code(), rows.constantCount(), rows.fact(), rows.keys(), rows.answers(), rows.dimensions(),
                rows.dimColumns(), rows.slots(), outputs, mode, null, null, List.of(), null, cut, rows.constants(), rows.status(),
                rows.acc(), rows.rows(), rows.groups());
    }

    /**
     * Compiles the kernels with nvcc, {@link #PER_FILE} to a file (each renamed after its index), in
     * parallel, as NVRTC does on the GPU host: the same headers, architecture and options.
     */
    private void compileWhereCudaIsInstalled(List<String> kernels) throws Exception {
        if (!Nvcc.installed()) {
            return;
        }
        List<String> nvcc = Nvcc.command(dir);
        List<Process> runs = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int from = 0; from < kernels.size(); from += PER_FILE) {
            StringBuilder file = new StringBuilder();
            for (int k = from; k < Math.min(kernels.size(), from + PER_FILE); k++) {
                file.append(kernels.get(k).replace(" " + StarKernelSource.ENTRY + "(", " k" + k + "(")
                        .replaceAll("(?m)^#define STATUS_.*$", "")).append('\n');
            }
            String defines = kernels.get(0).substring(0, kernels.get(0).indexOf("#include"));
            Path cu = dir.resolve("kernels" + from + ".cu");
            Files.writeString(cu, defines + file);
            Path log = dir.resolve("kernels" + from + ".log");
            logs.add(log);
            List<String> command = new ArrayList<>(nvcc);
            command.addAll(List.of(cu.toString(), "-o", dir.resolve("kernels" + from + ".cubin").toString()));
            runs.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
        }
        for (int r = 0; r < runs.size(); r++) {
            assertTrue(runs.get(r).waitFor(10, TimeUnit.MINUTES), "nvcc timed out");
            String log = Files.readString(logs.get(r), StandardCharsets.UTF_8);
            assertEquals(0, runs.get(r).exitValue(), log);
            long functions = log.lines().filter(l -> l.contains("Compiling entry function")).count();
            long clean = log.lines().filter(l -> l.contains("0 bytes spill stores, 0 bytes spill loads")).count();
            assertTrue(functions > 0 && clean >= functions, "register spills:\n" + log);
        }
    }

    private static long count(String s, char c) {
        return s.chars().filter(x -> x == c).count();
    }
}

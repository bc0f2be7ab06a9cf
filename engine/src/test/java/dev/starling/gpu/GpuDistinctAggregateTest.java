package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.exec.BackendMode;
import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: COUNT, SUM and AVG over DISTINCT values run inside the GPU pipeline (a set of
 * (group, value) pairs per DISTINCT aggregate) and answer as the CPU backend does, in every fold
 * the groups can take (one group, a few, many, hashed), over NULLs, skewed values, doubles whose
 * zeros differ in sign, string codes, a dimension's columns, FILTER and HAVING, and no rows at all;
 * device memory returns to its baseline after each.
 */
@Tag("gpu")
class GpuDistinctAggregateTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        TableBuilder dim = new TableBuilder(new TableSchema("dim", List.of(
                new ColumnSchema("id", DataType.INTEGER, false),
                new ColumnSchema("cat", DataType.INTEGER, false),
                new ColumnSchema("weight", DataType.decimal(6, 2), true)), List.of("id"), List.of()), c);
        for (int r = 0; r < 5_000; r++) {
            long weight = r % 400;
            dim.setLong(0, r);
            dim.setLong(1, r % 13);
            NullableCells.nullOr(dim, 2, r % 9 == 0, () -> dim.setLong(2, weight));
            dim.endRow();
        }
        c.put(dim.build());
        TableBuilder d = new TableBuilder(new TableSchema("d", List.of(
                new ColumnSchema("k", DataType.BIGINT, false),
                new ColumnSchema("grp", DataType.INTEGER, false),
                new ColumnSchema("g2", DataType.INTEGER, false),
                new ColumnSchema("amt", DataType.decimal(12, 2), true),
                new ColumnSchema("n", DataType.INTEGER, true),
                new ColumnSchema("z", DataType.INTEGER, false),
                new ColumnSchema("x", DataType.DOUBLE, true),
                new ColumnSchema("s", DataType.VARCHAR, true),
                new ColumnSchema("unit", DataType.INTEGER, false),
                new ColumnSchema("fk", DataType.INTEGER, true)), List.of(),
                List.of(new ForeignKey(List.of("fk"), "dim", List.of("id")))), c);
        Random random = new Random(11);
        for (int r = 0; r < 200_000; r++) {
            d.setLong(0, random.nextInt(100_000));
            d.setLong(1, r % 10);
            d.setLong(2, random.nextInt(1_000));
            NullableCells.nullOr(d, 3, r % 7 == 0, () -> d.setLong(3, random.nextInt(20_000) - 10_000));
            NullableCells.nullOr(d, 4, r % 3 == 0, () -> d.setLong(4, random.nextInt(50)));
            // Zipf-like (θ = 1): value v about 1/v as often
            d.setLong(5, (long) Math.floor(Math.exp(random.nextDouble() * Math.log(100_000))));
            int sign = random.nextBoolean() ? 1 : -1;
            NullableCells.nullOr(d, 6, r % 11 == 0, () -> d.setDouble(6, random.nextInt(4) == 0 ? sign * 0.0
                    : random.nextInt(300) / 4.0));
            NullableCells.nullOr(d, 7, r % 13 == 0, () -> d.setString(7, "s" + random.nextInt(700)));
            d.setLong(8, 1);
            NullableCells.nullOr(d, 9, r % 17 == 0, () -> d.setLong(9, random.nextInt(5_000)));
            d.endRow();
        }
        c.put(d.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // ten groups (folded per warp), a thousand (in shared memory), 100,000 (in device memory)
        "SELECT grp, COUNT(DISTINCT n), COUNT(*), COUNT(n) FROM d GROUP BY grp",
        "SELECT g2, COUNT(DISTINCT n), SUM(DISTINCT amt), AVG(DISTINCT amt), SUM(amt) FROM d GROUP BY g2",
        "SELECT k, COUNT(DISTINCT grp), SUM(DISTINCT n) FROM d GROUP BY k",
        // one group; no rows; every value the same
        "SELECT COUNT(DISTINCT k), COUNT(DISTINCT amt), SUM(DISTINCT n), AVG(DISTINCT z), COUNT(*) FROM d",
        "SELECT COUNT(DISTINCT n), SUM(DISTINCT amt) FROM d WHERE grp = 99",
        "SELECT grp, COUNT(DISTINCT n) FROM d WHERE grp = 99 GROUP BY grp",
        "SELECT grp, COUNT(DISTINCT unit), SUM(DISTINCT unit) FROM d GROUP BY grp",
        // skewed values; doubles, -0.0 one value with 0.0; strings by their codes
        "SELECT grp, COUNT(DISTINCT z), SUM(DISTINCT z) FROM d GROUP BY grp",
        "SELECT grp, COUNT(DISTINCT x), SUM(DISTINCT x), AVG(DISTINCT x) FROM d GROUP BY grp",
        "SELECT g2, COUNT(DISTINCT s) FROM d GROUP BY g2",
        // hashed groups (k by amt passes 2^24 dense ids)
        "SELECT k, amt, COUNT(DISTINCT n) FROM d GROUP BY k, amt",
        // FILTER: a set per filter; HAVING on the GPU over distinct counts
        "SELECT grp, COUNT(DISTINCT n) FILTER (WHERE amt > 0), COUNT(DISTINCT n) FROM d GROUP BY grp",
        "SELECT g2, COUNT(DISTINCT n) FROM d GROUP BY g2 HAVING COUNT(DISTINCT n) > 25",
        // a dimension's group keys and values, through a foreign key
        "SELECT cat, COUNT(DISTINCT n), COUNT(DISTINCT weight), COUNT(DISTINCT fk) FROM d JOIN dim ON fk = id GROUP BY cat",
        "SELECT COUNT(DISTINCT fk), COUNT(DISTINCT cat) FROM d JOIN dim ON fk = id WHERE weight > 100"
    })
    void distinctAggregatesOnTheGpuAgreeWithTheCpu(String sql) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), sql, "a DISTINCT aggregate's values are told apart in one set");
        assertTrue(GpuResults.assertSameOn(ENGINE.db(), ENGINE.gpu(), BackendMode.BOTH, sql, sql),
                "did not run on the GPU under backend both: " + GpuResults.explainedOnGpu(ENGINE.db(), sql));
    }
}

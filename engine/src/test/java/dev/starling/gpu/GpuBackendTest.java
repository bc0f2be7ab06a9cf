package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: every SSB and TPC-H query answers the same with the GPU forced as on the CPU
 * backend, at SF 0.1 and SF 1, with no pipeline on the CPU, and leaves no device memory behind; so
 * do three variants of each with other substitution parameters, at SF 0.1.
 */
@Tag("gpu")
class GpuBackendTest {

    private static final int VARIANTS = 3;

    @ParameterizedTest
    @ValueSource(doubles = {0.1, 1})
    void ssbQueriesAgreeWithTheCpu(double sf) {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            SsbGenerator.generate(db.catalog(), sf, "");
            for (String q : SsbQueries.names()) {
                GpuResults.assertWholeOnGpu(db, gpu, "SSB Q" + q + " SF " + sf, SsbQueries.query(q));
            }
            gpu.columnCache().clear();
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.1, 1})
    void tpchQueriesAgreeWithTheCpu(double sf) {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            TpchGenerator.generate(db.catalog(), sf, "");
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                GpuResults.assertWholeOnGpu(db, gpu, "TPC-H Q" + q + " SF " + sf, TpchQueries.query(q, sf));
            }
            for (String exists : List.of("EXISTS", "NOT EXISTS")) {
                // joined by the code the customer dimension was probed with, itself read from the orders dimension
                String sql = "SELECT COUNT(*), SUM(l1.l_quantity) FROM lineitem l1 JOIN orders ON l1.l_orderkey = o_orderkey "
                        + "JOIN customer ON o_custkey = c_custkey WHERE c_mktsegment = 'BUILDING' AND " + exists
                        + " (SELECT * FROM orders o2 WHERE o2.o_custkey = c_custkey AND o2.o_orderdate > l1.l_shipdate)";
                assertTrue(GpuResults.assertSameOnGpu(db, gpu, exists + " by a dimension's code, SF " + sf, sql),
                        "did not run on the GPU: " + db.explain(sql));
            }
            gpu.columnCache().clear();
        }
    }

    @Test
    void variantsAgreeWithTheCpuWithNoPipelineOnTheCpu() {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            TpchGenerator.generate(db.catalog(), 0.1, "");
            for (int q = 1; q <= TpchQueries.COUNT; q++) {
                for (long seed = 1; seed <= VARIANTS; seed++) {
                    GpuResults.assertWholeOnGpu(db, gpu, "TPC-H Q" + q + " variant " + seed, TpchQueries.variant(q, 0.1, seed));
                }
            }
            gpu.columnCache().clear();
        }
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElseThrow();
            SsbGenerator.generate(db.catalog(), 0.1, "");
            for (String q : SsbQueries.names()) {
                for (long seed = 1; seed <= VARIANTS; seed++) {
                    GpuResults.assertWholeOnGpu(db, gpu, "SSB Q" + q + " variant " + seed, SsbQueries.variant(q, seed));
                }
            }
            gpu.columnCache().clear();
        }
    }
}

package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.engine.Starling;
import dev.starling.storage.gen.SsbGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On the GPU host: queries without aggregation, their rows selected on the GPU (fact values,
 * string codes, dimension values found through dense and hashed joins), equal to the CPU
 * backend's, including a result larger than the first output room, which takes a second run.
 */
@Tag("gpu")
class GpuSelectionTest {

    @Test
    void selectedRowsAgreeWithTheCpu() {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            SsbGenerator.generate(db.catalog(), 1, "");
            for (String sql : new String[] {
                "SELECT lo_orderkey, lo_linenumber, lo_revenue, lo_shipmode, d_yearmonth, c_city, c_nation "
                        + "FROM lineorder, dwdate, customer WHERE lo_orderdate = d_datekey AND lo_custkey = c_custkey "
                        + "AND lo_discount = 1 AND lo_quantity < 5 AND d_year = 1993",
                "SELECT lo_orderkey, lo_linenumber, lo_extendedprice * lo_discount, lo_tax > 4, 'x' FROM lineorder "
                        + "WHERE lo_quantity = 1 AND lo_orderpriority <> '1-URGENT'",
                "SELECT lo_orderkey FROM lineorder WHERE lo_quantity > 100",
                // about 4.4M of 6M rows: more than the first output room of 4M
                "SELECT lo_orderkey, lo_linenumber, lo_discount FROM lineorder WHERE lo_discount < 8"
            }) {
                assertTrue(GpuResults.assertSameOnGpu(db, gpu, sql, sql), "did not run on the GPU: " + db.explain(sql));
            }
            gpu.columnCache().clear();
        }
    }
}

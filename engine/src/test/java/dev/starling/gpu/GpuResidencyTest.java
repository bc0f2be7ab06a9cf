package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.starling.engine.Starling;
import dev.starling.storage.Table;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import dev.starling.storage.gen.TpchGenerator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the GPU host: ALTER TABLE ... SET (gpu_resident = ...) keeps a table's columns in device memory, and stops. */
@Tag("gpu")
class GpuResidencyTest {

    @Test
    void aResidentTableSurvivesEvictionUntilReleased() {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            gpu.columnCache().clear();
            long baseline = gpu.device().memory().used();
            SsbGenerator.generate(db.catalog(), 0.1, "");
            assertEquals(List.of(List.of(0L)), db.query("ALTER TABLE lineorder SET (gpu_resident = true)").rows());
            Table lineorder = db.catalog().require("lineorder");
            assertEquals(Set.of("lineorder"), gpu.columnCache().residentTables());
            for (int c = 0; c < lineorder.columns().size(); c++) {
                assertTrue(gpu.columnCache().isResident(lineorder.column(c)), lineorder.column(c).name());
            }
            long resident = gpu.columnCache().residentBytes();
            assertTrue(GpuResults.assertSameOnGpu(db, gpu, "SSB Q1.1 resident", SsbQueries.query("1.1")));
            gpu.columnCache().clear();
            assertEquals(resident, gpu.columnCache().residentBytes(), "clearing the cache keeps resident tables");
            db.query("ALTER TABLE lineorder SET gpu_resident = false");
            gpu.columnCache().clear();
            assertEquals(0, gpu.columnCache().residentBytes());
            db.query("ALTER TABLE lineorder SET (gpu_resident = true)");
            db.query("DROP TABLE lineorder");
            assertTrue(gpu.columnCache().residentTables().isEmpty(), "a dropped table is no longer kept");
            gpu.columnCache().clear();
            assertEquals(baseline, gpu.device().memory().used());
        }
    }

    @Test
    void aStringPredicatesAnswersStayOnTheDeviceWithTheirColumnButDoNotPinIt() {
        try (Starling db = Starling.inMemory()) {
            GpuBackend gpu = db.gpu().orElse(null);
            assumeTrue(gpu != null, "no GPU");
            TpchGenerator.generate(db.catalog(), 0.01, "");
            // the cache is the process's: start from nothing another test left in it
            gpu.columnCache().clear();
            Table orders = db.catalog().require("orders");
            long entries = orders.column(orders.schema().indexOf("o_comment")).dictionary().size() + 1L;
            String special = "SELECT count(*) FROM orders WHERE o_comment NOT LIKE '%special%requests%'";
            String pending = "SELECT count(*) FROM orders WHERE o_comment LIKE '%pending%'";
            assertTrue(GpuResults.assertSameOnGpu(db, gpu, "first NOT LIKE", special));
            long afterFirst = gpu.columnCache().residentBytes();
            assertTrue(GpuResults.assertSameOnGpu(db, gpu, "NOT LIKE again", special));
            assertEquals(afterFirst, gpu.columnCache().residentBytes(), "the answers were kept, not uploaded again");
            assertTrue(GpuResults.assertSameOnGpu(db, gpu, "another pattern", pending));
            assertEquals(afterFirst + entries, gpu.columnCache().residentBytes(),
                    "another pattern's answers, a byte per dictionary entry and one for NULL");
            db.query("ALTER TABLE orders SET (gpu_resident = true)");
            long resident = gpu.columnCache().residentBytes();
            gpu.columnCache().clear();
            assertEquals(resident - 2 * entries, gpu.columnCache().residentBytes(),
                    "a resident table keeps its columns, not the answers derived from them");
            db.query("ALTER TABLE orders SET (gpu_resident = false)");
            gpu.columnCache().clear();
            assertEquals(0, gpu.columnCache().residentBytes(), "the answers go with the cache's other entries");
        }
    }
}

package dev.starling.gpu;

import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On the GPU host: a join input of a join the CPU runs (a build side, either side of a join that
 * marks its probe rows) takes its rows from a GPU pipeline of rows, as EXPLAIN says, and the
 * answers are the CPU backend's: TPC-H Q20's partsupp rows of its parts, which probe the lineitem
 * sums, and its Canadian suppliers, which its marking join marks on the CPU.
 */
@Tag("gpu")
class GpuJoinInputRowsTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        TpchGenerator.generate(ENGINE.db().catalog(), 0.1, "");
    }

    @Test
    void joinInputRowsFromTheGpuAgreeWithTheCpu() {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), TpchQueries.query(20),
                "its rows from the GPU, the join's table built from them on the CPU");
    }
}

package dev.starling.gpu;

import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On the GPU host: a join input that the CPU builds a table from (a CPU join's build side, either
 * side of a join that marks its probe rows, a dimension the GPU plan above reads as built rows)
 * takes its rows from a GPU pipeline of rows, as EXPLAIN says, and the answers are the CPU
 * backend's: TPC-H Q20's partsupp rows of its parts, which probe the lineitem sums, and its
 * Canadian suppliers; Q16's parts; the nations of Q5, Q7, Q9 and Q10.
 */
@Tag("gpu")
class GpuJoinInputRowsTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        TpchGenerator.generate(ENGINE.db().catalog(), 0.1, "");
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 7, 9, 10, 16, 20})
    void joinInputRowsFromTheGpuAgreeWithTheCpu(int q) {
        GpuResults.assertRunsOnGpuAsExplained(ENGINE.db(), ENGINE.gpu(), TpchQueries.query(q),
                "its rows from the GPU, the join's table built from them on the CPU");
    }
}

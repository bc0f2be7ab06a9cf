package dev.starling.difftest;

import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.SsbQueries;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The 13 Star Schema Benchmark queries give the same rows on Starling and on DuckDB over the same generated data. */
class SsbDifferentialTest {
    private static final GeneratedEngines DATA = new GeneratedEngines(
            (catalog, scaleFactor) -> SsbGenerator.generate(catalog, scaleFactor, ""));

    @AfterAll
    static void close() throws Exception {
        DATA.close();
    }

    static Stream<Arguments> queries() {
        return DoubleStream.of(0.01, 0.1).boxed().flatMap(scaleFactor -> SsbQueries.names().stream()
                .map(query -> Arguments.of(scaleFactor, query)));
    }

    @ParameterizedTest(name = "SF {0} Q{1}")
    @MethodSource("queries")
    void sameRowsAsDuckDb(double scaleFactor, String query) throws Exception {
        DATA.at(scaleFactor).assertSameAnswer(SsbQueries.query(query));
    }
}

package dev.starling.difftest;

import dev.starling.storage.gen.TpchGenerator;
import dev.starling.storage.gen.TpchQueries;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries give the same rows on Starling and on DuckDB over the same generated data, and
 * at SF 0.01 the rows of the reference answers too; so do three variants of each with other
 * substitution parameters.
 */
class TpchDifferentialTest {
    private static final int VARIANTS = 3;
    private static final GeneratedEngines DATA = new GeneratedEngines(
            (catalog, scaleFactor) -> TpchGenerator.generate(catalog, scaleFactor, ""));

    @AfterAll
    static void close() throws Exception {
        DATA.close();
    }

    static Stream<Arguments> queries() {
        return DoubleStream.of(0.01, 0.1).boxed().flatMap(scaleFactor -> IntStream.rangeClosed(1, TpchQueries.COUNT)
                .mapToObj(query -> Arguments.of(scaleFactor, query)));
    }

    @ParameterizedTest(name = "SF {0} Q{1}")
    @MethodSource("queries")
    void sameRowsAsDuckDb(double scaleFactor, int query) throws Exception {
        ResultRows starling = DATA.at(scaleFactor).assertSameAnswer(TpchQueries.query(query));
        if (scaleFactor == TpchReferenceAnswers.SCALE_FACTOR) {
            TpchReferenceAnswers.assertMatches(query, starling);
        }
    }

    static Stream<Arguments> variants() {
        return IntStream.rangeClosed(1, TpchQueries.COUNT).boxed()
                .flatMap(query -> LongStream.rangeClosed(1, VARIANTS).mapToObj(seed -> Arguments.of(query, seed)));
    }

    @ParameterizedTest(name = "SF 0.1 Q{0} variant {1}")
    @MethodSource("variants")
    void variantsGiveTheSameRowsAsDuckDb(int query, long seed) throws Exception {
        DATA.at(0.1).assertSameAnswer(TpchQueries.variant(query, 0.1, seed));
    }
}

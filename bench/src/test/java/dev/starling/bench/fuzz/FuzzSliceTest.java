package dev.starling.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.storage.Catalog;
import dev.starling.storage.gen.SsbGenerator;
import dev.starling.storage.gen.TpchGenerator;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A short seeded slice of the differential fuzzing that {@code FuzzMain} runs at length: the same
 * random queries over TPC-H and SSB at SF 0.01 on Starling's CPU backend and on DuckDB, with no
 * wrong answer and no query that one engine refuses and the other answers.
 */
class FuzzSliceTest {
    static final long SEED = 20261126;
    private static final int QUERIES = 300;

    static Stream<Arguments> workloads() {
        return Stream.of(
                Arguments.of("tpch", (Consumer<Catalog>) c -> TpchGenerator.generate(c, 0.01, "")),
                Arguments.of("ssb", (Consumer<Catalog>) c -> SsbGenerator.generate(c, 0.01, "")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloads")
    void randomQueriesAgreeWithDuckDb(String workload, Consumer<Catalog> generate) throws Exception {
        try (Starling db = Starling.inMemory()) {
            generate.accept(db.catalog());
            try (DuckDbOracle duck = new DuckDbOracle(db.catalog())) {
                QueryGenerator generator = new QueryGenerator(FuzzSchema.of(db), SEED);
                DifferentialRun run = new DifferentialRun(Engine.starling(db, BackendMode.CPU, Duration.ofSeconds(60)), duck);
                for (int n = 0; n < QUERIES; n++) {
                    run.check(n, generator.query(n));
                }
                assertTrue(run.failures().isEmpty(), run.failures().size() + " of " + QUERIES + " queries failed:\n"
                        + run.report());
                assertTrue(run.tally().get(Outcome.AGREE) > QUERIES * 9 / 10, "most queries are answered: " + run.tally());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloads")
    void theSameSeedGivesTheSameQueries(String workload, Consumer<Catalog> generate) {
        try (Starling db = Starling.inMemory()) {
            generate.accept(db.catalog());
            FuzzSchema schema = FuzzSchema.of(db);
            for (int n = 0; n < 20; n++) {
                assertEquals(new QueryGenerator(schema, SEED).query(n), new QueryGenerator(schema, SEED).query(n));
            }
        }
    }
}

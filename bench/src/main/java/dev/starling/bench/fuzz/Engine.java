package dev.starling.bench.fuzz;

import dev.starling.difftest.ResultRows;
import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;
import dev.starling.exec.Settings;
import java.time.Duration;

/** An engine that answers a generated query: DuckDB ({@link DuckDbOracle}), or Starling under one backend. */
public interface Engine {
    String name();

    /** The answer to {@code sql}; any failure is thrown. */
    ResultRows answer(String sql) throws Exception;

    /**
     * Starling's embedded API under {@code backend}; a query stops after {@code timeout}, so that
     * one slow plan does not hold a whole run.
     */
    static Engine starling(Starling db, BackendMode backend, Duration timeout) {
        Settings settings = Settings.DEFAULT.withBackend(backend).with("query_timeout", timeout.toMillis() + "ms");
        return new Engine() {
            @Override
            public String name() {
                return "Starling " + backend.name().toLowerCase(java.util.Locale.ROOT);
            }

            @Override
            public ResultRows answer(String sql) {
                db.setSettings(settings);
                return ResultRows.of(db.query(sql));
            }
        };
    }
}

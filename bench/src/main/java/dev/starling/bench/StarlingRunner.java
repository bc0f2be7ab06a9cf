package dev.starling.bench;

import dev.starling.difftest.ResultRows;
import dev.starling.engine.Starling;
import dev.starling.exec.BackendMode;

/** Starling through its embedded API, one backend asked for; the result is kept whole, as {@code query} returns it. */
final class StarlingRunner implements QueryRunner {
    private final Starling db;
    private final BackendMode backend;

    StarlingRunner(Starling db, BackendMode backend) {
        this.db = db;
        this.backend = backend;
    }

    @Override
    public long run(String sql) {
        db.setBackendMode(backend);
        return db.query(sql).rows().size();
    }

    @Override
    public ResultRows answer(String sql) {
        db.setBackendMode(backend);
        return ResultRows.of(db.query(sql));
    }

    @Override
    public void close() {
    }
}

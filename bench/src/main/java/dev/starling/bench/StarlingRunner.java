package dev.starling.bench;

import dev.starling.engine.Starling;
import dev.starling.storage.Catalog;

/**
 * Starling through its embedded API. Only this class names the engine, so a DuckDB-only run
 * (the GPU host's DuckDB bundle leaves the planner out) never loads it.
 */
final class StarlingRunner implements QueryRunner {
    private final Starling db;

    StarlingRunner(Catalog catalog) {
        this.db = Starling.over(catalog);
    }

    @Override
    public int run(String sql) {
        return db.query(sql).rows().size();
    }

    @Override
    public void close() {
        db.close();
    }
}

package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.starling.engine.Starling;
import dev.starling.exec.QueryResult;
import dev.starling.exec.BackendMode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Runs SQL on the CPU and on the GPU backend of one engine and compares the answers. */
final class GpuResults {
    private GpuResults() { }

    /**
     * Runs {@code sql} with the CPU backend, then forcing the GPU; checks that the answers agree
     * (row order only where the query orders, doubles to a relative 1e-9: the GPU adds in another
     * order; NaN equals NaN) and that per-query device memory returned to its baseline. Returns whether a GPU
     * pipeline, or a sort on the GPU, ran.
     */
    static boolean assertSameOnGpu(Starling db, GpuBackend gpu, String label, String sql) {
        return assertSameOn(db, gpu, BackendMode.GPU, label, sql);
    }

    /** As {@link #assertSameOnGpu}, under backend {@code mode} (gpu, or both: the GPU sharing the fact rows with the CPU workers). */
    static boolean assertSameOn(Starling db, GpuBackend gpu, BackendMode mode, String label, String sql) {
        db.setBackendMode(BackendMode.CPU);
        QueryResult cpu = db.query(sql);
        long runsBefore = gpu.runs() + gpu.sorts();
        long baseline = gpu.device().memory().used() - gpu.columnCache().heldBytes();
        db.setBackendMode(mode);
        QueryResult onGpu;
        try {
            onGpu = db.query(sql);
        } finally {
            db.setBackendMode(BackendMode.AUTO);
        }
        assertEquals(baseline, gpu.device().memory().used() - gpu.columnCache().heldBytes(),
                label + ": device memory not back to its baseline");
        boolean ordered = sql.toLowerCase().contains("order by");
        assertRowsEqual(label, rows(cpu, ordered), rows(onGpu, ordered));
        return gpu.runs() + gpu.sorts() > runsBefore;
    }

    /** {@code sql}'s EXPLAIN with the GPU forced. */
    static String explainedOnGpu(Starling db, String sql) {
        db.setBackendMode(BackendMode.GPU);
        try {
            return db.explain(sql);
        } finally {
            db.setBackendMode(BackendMode.AUTO);
        }
    }

    /**
     * Checks that {@code sql}'s EXPLAIN with the GPU forced says {@code said}, that a GPU pipeline
     * ran it and that the answers agree ({@link #assertSameOnGpu}).
     */
    static void assertRunsOnGpuAsExplained(Starling db, GpuBackend gpu, String sql, String said) {
        String explained = explainedOnGpu(db, sql);
        assertTrue(explained.contains(said), explained);
        assertTrue(assertSameOnGpu(db, gpu, sql, sql), "did not run on the GPU: " + explained);
    }

    /**
     * Checks that {@code sql}'s EXPLAIN with the GPU forced shows no pipeline on the CPU, and that
     * it runs on the GPU with the CPU backend's answer ({@code label} names it in failures).
     */
    static void assertWholeOnGpu(Starling db, GpuBackend gpu, String label, String sql) {
        String explained = explainedOnGpu(db, sql);
        assertFalse(explained.contains("backend=cpu"), label + ":\n" + explained);
        assertTrue(assertSameOnGpu(db, gpu, label, sql), label + " did not run on the GPU:\n" + explained);
    }

    /** Checks that {@code sql} fails with a SUM overflow on the CPU and with the GPU forced alike. */
    static void assertSumOverflowOnCpuAndGpu(Starling db, String sql) {
        for (BackendMode mode : List.of(BackendMode.CPU, BackendMode.GPU)) {
            db.setBackendMode(mode);
            try {
                ArithmeticException e = assertThrows(ArithmeticException.class, () -> db.query(sql), mode.name());
                assertTrue(e.getMessage().contains("SUM overflow"), e.getMessage());
            } finally {
                db.setBackendMode(BackendMode.AUTO);
            }
        }
    }

    static List<List<Object>> rows(QueryResult r, boolean ordered) {
        List<List<Object>> rows = new ArrayList<>(r.rows());
        if (!ordered) {
            rows.sort(Comparator.comparing(Object::toString));
        }
        return rows;
    }

    static void assertRowsEqual(String label, List<List<Object>> expected, List<List<Object>> actual) {
        assertEquals(expected.size(), actual.size(), label + ": row count");
        for (int r = 0; r < expected.size(); r++) {
            List<Object> e = expected.get(r);
            List<Object> a = actual.get(r);
            assertEquals(e.size(), a.size(), label + ": width");
            for (int c = 0; c < e.size(); c++) {
                if (!same(e.get(c), a.get(c))) {
                    fail(label + ": row " + r + " column " + c + ": cpu " + e + " gpu " + a);
                }
            }
        }
    }

    private static boolean same(Object e, Object a) {
        if (e instanceof Double x && a instanceof Double y) {
            return x.equals(y) || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.max(Math.abs(x), Math.abs(y)));
        }
        if (e instanceof BigDecimal x && a instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        return java.util.Objects.equals(e, a);
    }
}

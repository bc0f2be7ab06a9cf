package dev.starling.exec.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.starling.engine.Starling;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.ScanNode;
import dev.starling.planner.SqlPlanner;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.Table;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Zone maps skip chunks for string conjuncts (answered per dictionary entry) and for a value a
 * chunk's set of small values lacks, and never a chunk with a qualifying row: for each filter, the
 * chunks left are exactly those holding a match, and the count equals one over every row.
 */
class ZoneMapPrunerTest {
    private static final int CHUNKS = 8;

    /** Row {@code r} of events, as {@link #events} writes it. */
    private record Row(String city, long n, String tag, String code) {
        static Row of(int r) {
            int c = r >> Table.CHUNK_SHIFT;
            return new Row(c == 7 ? null : "c" + c, r % 2 == 0 ? c : c + 8, "t" + r % 3, c == 0 ? "n/a" : String.valueOf(c));
        }
    }

    /** Chunk c's rows: city "c" + c (NULL in chunk 7), n = c or c + 8 (both small), tag "t" + r % 3, code c ("n/a" in chunk 0). */
    private static Table events(Starling db) {
        TableBuilder b = new TableBuilder(new TableSchema("events", List.of(
                new ColumnSchema("city", DataType.VARCHAR, true),
                new ColumnSchema("n", DataType.INTEGER, false),
                new ColumnSchema("tag", DataType.VARCHAR, false),
                new ColumnSchema("code", DataType.VARCHAR, false)), List.of(), List.of()), db.catalog());
        for (int r = 0; r < CHUNKS * Table.CHUNK_ROWS; r++) {
            Row row = Row.of(r);
            if (row.city() == null) {
                b.setNull(0);
            } else {
                b.setString(0, row.city());
            }
            b.setLong(1, row.n());
            b.setString(2, row.tag());
            b.setString(3, row.code());
            b.endRow();
        }
        return b.build();
    }

    @Test
    void skipsExactlyTheChunksWithoutAMatch() {
        try (Starling db = Starling.inMemory()) {
            db.catalog().put(events(db));
            check(db, "city = 'c3'", r -> "c3".equals(r.city()));
            check(db, "city IN ('c1', 'c5', 'nowhere')", r -> "c1".equals(r.city()) || "c5".equals(r.city()));
            check(db, "city LIKE 'c%' AND city <> 'c0'", r -> r.city() != null && !r.city().equals("c0"));
            check(db, "city = 'nowhere'", r -> false);
            check(db, "city IS NULL", r -> r.city() == null);
            check(db, "coalesce(city, 'none') = 'none'", r -> r.city() == null);
            check(db, "n = 11", r -> r.n() == 11);
            check(db, "n = 8", r -> r.n() == 8);
            check(db, "upper(tag) = 'T2'", r -> r.tag().equals("t2"));
            check(db, "city = 'c2' AND n = 10", r -> "c2".equals(r.city()) && r.n() == 10);
            check(db, "city = 'c2' AND n = 11", r -> "c2".equals(r.city()) && r.n() == 11);
            check(db, "code <> 'n/a' AND code <> '5'", r -> !r.code().equals("n/a") && !r.code().equals("5"));
        }
    }

    /**
     * The pruner leaves exactly the chunks holding a row {@code holds} of (all of them for a
     * conjunct the zone maps cannot tell, here {@code tag}'s), and the count is {@code holds}'s.
     */
    private static void check(Starling db, String where, java.util.function.Predicate<Row> holds) {
        String sql = "SELECT count(*) FROM events WHERE " + where;
        ScanNode scan = scan(new SqlPlanner(db.catalog()).plan(sql).plan());
        ZoneMapPruner pruner = new ZoneMapPruner(scan);
        List<Integer> left = IntStream.range(0, CHUNKS).filter(c -> pruner.mayMatch(scan, c)).boxed().toList();
        List<Integer> holding = IntStream.range(0, CHUNKS).filter(c -> IntStream.range(c << Table.CHUNK_SHIFT,
                (c + 1) << Table.CHUNK_SHIFT).anyMatch(r -> holds.test(Row.of(r)))).boxed().toList();
        List<Integer> expectedLeft = where.contains("tag") ? IntStream.range(0, CHUNKS).boxed().toList() : holding;
        assertEquals(expectedLeft, left, where);
        long rows = IntStream.range(0, CHUNKS << Table.CHUNK_SHIFT).filter(r -> holds.test(Row.of(r))).count();
        assertEquals(rows, db.query(sql).rows().get(0).get(0), where);
    }

    private static ScanNode scan(PlanNode node) {
        if (node instanceof ScanNode s) {
            return s;
        }
        return node.inputs().stream().map(ZoneMapPrunerTest::scan).filter(s -> s != null).findFirst().orElse(null);
    }
}

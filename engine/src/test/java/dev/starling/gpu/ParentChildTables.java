package dev.starling.gpu;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import java.util.Random;

/**
 * The tables GPU join tests share: {@code p (pk PRIMARY KEY, grp, tag)} of {@code parents} rows,
 * row r's key {@code keyStep * r + firstKey}, its group {@code r % groups}, its tag NULL every
 * {@code tagNullEvery} rows, else "late" (every {@code lateEvery} rows) or "ok", then
 * {@code r % tags}; and {@code ch (id, fk REFERENCES p, amt)} of {@code children} rows, whose
 * parent is drawn among the first {@code parentsWithChildren} (the others have no child), NULL
 * every {@code fkNullEvery} rows, and whose amount, below 1,000, is NULL every
 * {@code amtNullEvery} rows.
 */
record ParentChildTables(int parents, long keyStep, long firstKey, int groups, int tagNullEvery, int lateEvery,
                         int tags, int children, int parentsWithChildren, int fkNullEvery, int amtNullEvery) {

    /** Puts {@code p} and {@code ch} into {@code c}, drawing each child's parent and then its amount from {@code random}. */
    void put(Catalog c, Random random) {
        TableBuilder parent = new TableBuilder(new TableSchema("p", List.of(
                new ColumnSchema("pk", DataType.INTEGER, false),
                new ColumnSchema("grp", DataType.INTEGER, false),
                new ColumnSchema("tag", DataType.VARCHAR, true)), List.of("pk"), List.of()), c);
        for (int r = 0; r < parents; r++) {
            parent.setLong(0, keyStep * r + firstKey);
            parent.setLong(1, r % groups);
            if (r % tagNullEvery == 0) {
                parent.setNull(2);
            } else {
                parent.setString(2, (r % lateEvery == 0 ? "late" : "ok") + r % tags);
            }
            parent.endRow();
        }
        c.put(parent.build());
        TableBuilder child = new TableBuilder(new TableSchema("ch", List.of(
                new ColumnSchema("id", DataType.INTEGER, false),
                new ColumnSchema("fk", DataType.INTEGER, true),
                new ColumnSchema("amt", DataType.INTEGER, true)), List.of(),
                List.of(new ForeignKey(List.of("fk"), "p", List.of("pk")))), c);
        for (int r = 0; r < children; r++) {
            child.setLong(0, r);
            if (r % fkNullEvery == 0) {
                child.setNull(1);
            } else {
                child.setLong(1, keyStep * random.nextInt(parentsWithChildren) + firstKey);
            }
            if (r % amtNullEvery == 0) {
                child.setNull(2);
            } else {
                child.setLong(2, random.nextInt(1_000));
            }
            child.endRow();
        }
        c.put(child.build());
    }
}

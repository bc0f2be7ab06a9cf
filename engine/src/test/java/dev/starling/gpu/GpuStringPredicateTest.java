package dev.starling.gpu;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.storage.Catalog;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableBuilder;
import dev.starling.storage.TableSchema;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Tag;

/**
 * On the GPU host: predicates of a string column that codes alone do not decide (LIKE, NOT LIKE,
 * SUBSTRING, order comparisons, IS NULL, inside CASE), on the fact table and on a dimension built
 * on the GPU, and group keys computed from one string column (SUBSTRING, UPPER, CHAR_LENGTH,
 * CASE), give the CPU backend's answers, NULL strings included, and run on the GPU.
 */
@Tag("gpu")
class GpuStringPredicateTest {
    @RegisterExtension
    static final GpuEngine ENGINE = new GpuEngine();

    @BeforeAll
    static void data() {
        Catalog c = ENGINE.db().catalog();
        String[] syllables = {"ab", "cd", "x", "é", "special", "requests", "q", "ü"};
        TableBuilder dim = new TableBuilder(new TableSchema("d", List.of(
                new ColumnSchema("dk", DataType.INTEGER, false),
                new ColumnSchema("dname", DataType.VARCHAR, true)), List.of("dk"), List.of()), c);
        Random random = new Random(11);
        for (int r = 0; r < 5_000; r++) {
            dim.setLong(0, r);
            if (r % 13 == 0) {
                dim.setNull(1);
            } else {
                dim.setString(1, syllables[random.nextInt(syllables.length)] + r + syllables[random.nextInt(syllables.length)]);
            }
            dim.endRow();
        }
        c.put(dim.build());
        TableBuilder fact = new TableBuilder(new TableSchema("s", List.of(
                new ColumnSchema("grp", DataType.INTEGER, false),
                new ColumnSchema("dk", DataType.INTEGER, false),
                new ColumnSchema("txt", DataType.VARCHAR, true)), List.of(),
                List.of(new ForeignKey(List.of("dk"), "d", List.of("dk")))), c);
        for (int r = 0; r < 300_000; r++) {
            fact.setLong(0, r % 10);
            fact.setLong(1, random.nextInt(5_000));
            if (r % 9 == 0) {
                fact.setNull(2);
            } else {
                StringBuilder s = new StringBuilder();
                for (int w = random.nextInt(4); w >= 0; w--) {
                    s.append(syllables[random.nextInt(syllables.length)]);
                }
                fact.setString(2, s.append(random.nextInt(20_000)).toString());
            }
            fact.endRow();
        }
        c.put(fact.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT grp, COUNT(*) FROM s WHERE txt LIKE '%ab%cd%' GROUP BY grp",
        "SELECT grp, COUNT(*) FROM s WHERE txt NOT LIKE '%special%requests%' GROUP BY grp",
        "SELECT grp, SUM(CASE WHEN txt LIKE '%é_%' THEN 1 ELSE 0 END), COUNT(*) FROM s GROUP BY grp",
        "SELECT grp, COUNT(*) FROM s WHERE txt IS NULL OR SUBSTRING(txt FROM 1 FOR 2) IN ('ab', 'cd') GROUP BY grp",
        "SELECT COUNT(*), MIN(grp) FROM s WHERE txt > 'q' AND txt <= 'x5'",
        "SELECT grp, COUNT(*) FROM s WHERE (txt LIKE '%q%') IS NOT TRUE GROUP BY grp",
        "SELECT grp, COUNT(*) FROM s JOIN d ON s.dk = d.dk WHERE dname LIKE 'ü%' GROUP BY grp",
        "SELECT grp, SUM(CASE WHEN dname NOT LIKE '%x%' THEN s.dk ELSE 0 END) FROM s JOIN d ON s.dk = d.dk GROUP BY grp",
        "SELECT SUBSTRING(txt FROM 1 FOR 2), COUNT(*), SUM(dk) FROM s GROUP BY SUBSTRING(txt FROM 1 FOR 2)",
        "SELECT grp, CHAR_LENGTH(txt), COUNT(*) FROM s WHERE grp < 4 GROUP BY grp, CHAR_LENGTH(txt)",
        "SELECT UPPER(SUBSTRING(txt FROM 2 FOR 1)) AS c, MIN(s.dk) FROM s JOIN d ON s.dk = d.dk WHERE dname LIKE '%q%' GROUP BY c",
        "SELECT CASE WHEN txt LIKE 'ab%' THEN 'ab' WHEN txt IS NULL THEN 'none' ELSE 'other' END AS k, COUNT(*) FROM s GROUP BY 1"
    })
    void answersPerDictionaryEntryAgreeWithTheCpu(String sql) {
        assertTrue(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "did not run on the GPU: " + ENGINE.db().explain(sql));
    }

    /**
     * A predicate that fails for strings no row reaching it has (no row is in group 99) is the
     * CPU's to answer row by row: the query answers, as on the CPU, instead of failing.
     */
    @Test
    void aPredicateFailingForSomeStringsGoesToTheCpu() {
        String sql = "SELECT COUNT(*) FROM s WHERE grp = 99 AND CAST(txt AS INTEGER) > 5";
        assertFalse(GpuResults.assertSameOnGpu(ENGINE.db(), ENGINE.gpu(), sql, sql), "the GPU answered it");
    }
}

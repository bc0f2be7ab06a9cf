package dev.starling.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.planner.sql.StarlingSqlException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LOAD under bounds reads files in the load directories only: a relative name under the first, an
 * absolute one inside one of them; names that lead out (.., an absolute path elsewhere, a link)
 * are refused alike, without saying whether the file exists; GENERATE stays within its largest
 * scale factor; without bounds both do as asked.
 */
class IntakeLimitsTest {
    @TempDir
    Path dir;

    @Test
    void loadReadsOnlyUnderItsDirectories() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path second = Files.createDirectories(dir.resolve("second"));
        Path file = Files.writeString(in.resolve("a.tbl"), "1|");
        Path other = Files.writeString(second.resolve("b.tbl"), "2|");
        Path outside = Files.writeString(dir.resolve("secret.tbl"), "3|");
        Files.createSymbolicLink(in.resolve("link.tbl"), outside);
        IntakeLimits limits = IntakeLimits.of(List.of(in, second), 1);

        assertEquals(file.toRealPath(), limits.loadable(Path.of("a.tbl")));
        assertEquals(other.toRealPath(), limits.loadable(other));
        assertEquals(file.toRealPath(), limits.loadable(Path.of("sub/../a.tbl")));
        for (Path name : List.of(outside, Path.of("../secret.tbl"), Path.of("link.tbl"), Path.of("../nothing.tbl"),
                Path.of("/etc/passwd"))) {
            StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> limits.loadable(name), name.toString());
            assertEquals("LOAD reads only files under " + in + ", " + second + " (load.allowed_dirs); " + name + " is not",
                    e.getMessage());
        }
        StarlingSqlException missing = assertThrows(StarlingSqlException.class, () -> limits.loadable(Path.of("b.tbl")));
        assertEquals("LOAD finds no file b.tbl under " + in + ", " + second, missing.getMessage());
        assertEquals(Path.of("../anything"), IntakeLimits.UNBOUNDED.loadable(Path.of("../anything")));
    }

    @Test
    void generateStaysWithinItsLargestScaleFactor() {
        try (Starling db = Starling.inMemory()) {
            db.setIntakeLimits(IntakeLimits.of(List.of(dir), 0.001));
            StarlingSqlException e = assertThrows(StarlingSqlException.class, () -> db.query("GENERATE tpch SCALE 0.01"));
            assertEquals("GENERATE makes scale factors up to 0.001 here (generate.max_scale_factor), not 0.01", e.getMessage());
            assertTrue(db.catalog().tables().isEmpty());
            db.query("GENERATE ssb SCALE 0.001");
            assertTrue(db.catalog().table("lineorder").isPresent());
        }
    }

    @Test
    void boundsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> IntakeLimits.of(List.of(), 1));
        assertThrows(IllegalArgumentException.class, () -> IntakeLimits.of(List.of(dir), 0));
    }
}

package dev.starling.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory is one process's: a second process that opens it is refused with the holder's
 * process id, and may open it once the first lets go; the holding process itself may open it again.
 */
class DataDirectoryLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondProcessIsRefusedUntilTheFirstLetsGo() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                HoldDataDirectory.class.getName(), dir.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("held", out.readLine());
            DataDirectoryInUseException e = assertThrows(DataDirectoryInUseException.class, () -> Catalog.open(dir));
            assertTrue(e.getMessage().contains("is in use by process " + holder.pid()), e.getMessage());
            holder.getOutputStream().close();
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS), "the holder did not exit");
        } finally {
            holder.destroyForcibly();
        }
        try (Catalog catalog = Catalog.open(dir)) {
            assertEquals(List.of(), List.copyOf(catalog.tables()));
        }
    }

    @Test
    void theHoldingProcessMayOpenItAgain() {
        try (Catalog first = Catalog.open(dir); Catalog again = Catalog.open(dir)) {
            assertTrue(again.tables().isEmpty() && first.tables().isEmpty());
        }
    }
}

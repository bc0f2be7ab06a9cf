package dev.starling.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Files replaced so that a crash leaves the old one or the new one, never a part: written whole
 * beside the target (its name and {@link #TEMP_SUFFIX}), forced to disk, renamed over it, and the
 * rename forced too.
 */
public final class DurableFiles {
    /** What a file being written is called, beside the target; one left by a crash is uncommitted. */
    public static final String TEMP_SUFFIX = ".tmp";

    /** Writes a file's contents. */
    public interface Writer {
        void write(FileChannel out) throws IOException;
    }

    private DurableFiles() { }

    /** Replaces (or creates) {@code target} with what {@code writer} writes, durably. */
    public static void replace(Path target, Writer writer) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + TEMP_SUFFIX);
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                writer.write(out);
                out.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        forceDirectory(target.toAbsolutePath().getParent());
    }

    /** Makes renames and deletions in directory {@code dir} durable. */
    public static void forceDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }
}

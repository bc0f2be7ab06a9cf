package dev.starling.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The exclusive hold of a process on a data directory: an operating-system lock on its
 * {@value #FILE} file, which names the holding process. A second process that opens the directory
 * is refused with that name, so two servers never write the same tables. Within one process the
 * directory may be opened again (a catalog reopened after a restart in tests); the lock goes when
 * the last holder releases it, or with the process.
 */
final class DataDirectoryLock implements AutoCloseable {
    static final String FILE = "starling.lock";
    private static final Map<Path, Held> HELD = new HashMap<>();

    private final Path dir;
    private boolean released;

    private record Held(FileChannel channel, FileLock lock, int holders) { }

    private DataDirectoryLock(Path dir) {
        this.dir = dir;
    }

    /** Takes the lock of {@code dir} (an existing directory); refuses when another process holds it. */
    static DataDirectoryLock acquire(Path dir) throws IOException {
        Path key = dir.toRealPath();
        synchronized (HELD) {
            Held held = HELD.get(key);
            if (held == null) {
                held = lock(key);
            }
            HELD.put(key, new Held(held.channel(), held.lock(), held.holders() + 1));
        }
        return new DataDirectoryLock(key);
    }

    private static Held lock(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock();
        if (lock == null) {
            channel.close();
            String holder = Files.readString(file, StandardCharsets.UTF_8).trim();
            throw new DataDirectoryInUseException("data directory " + dir + " is in use by "
                    + (holder.isEmpty() ? "another process" : "process " + holder) + " (it holds " + file
                    + "): stop that server, or give this one another directory");
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
        channel.force(true);
        return new Held(channel, lock, 0);
    }

    @Override
    public void close() {
        synchronized (HELD) {
            if (released) {
                return;
            }
            released = true;
            Held held = HELD.get(dir);
            if (held.holders() > 1) {
                HELD.put(dir, new Held(held.channel(), held.lock(), held.holders() - 1));
                return;
            }
            HELD.remove(dir);
            try {
                held.lock().release();
                held.channel().close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot release the lock of " + dir + ": " + e.getMessage(), e);
            }
        }
    }
}

package dev.starling.server.flight;

import dev.starling.server.config.Role;
import dev.starling.storage.DurableFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The roles GRANT and REVOKE gave the configured users, which outrank the roles the configuration
 * gives them, kept in the data directory's {@code roles.properties} (user = role) so that they
 * outlive a restart, replaced durably ({@link DurableFiles}). A server without a data directory
 * keeps them in memory.
 */
final class RoleGrants {
    static final String FILE = "roles.properties";

    private final Path file;
    private final Map<String, Role> granted;

    private RoleGrants(Path file, Map<String, Role> granted) {
        this.file = file;
        this.granted = granted;
    }

    /** The grants kept in {@code dataDirectory} (none there yet: none), or, without one, none kept. */
    static RoleGrants in(Optional<Path> dataDirectory) {
        Map<String, Role> granted = new TreeMap<>();
        Path file = dataDirectory.map(d -> d.resolve(FILE)).orElse(null);
        if (file != null && Files.exists(file)) {
            Properties read = new Properties();
            try (Reader in = Files.newBufferedReader(file)) {
                read.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the roles GRANT gave, " + file + ": " + e.getMessage(), e);
            }
            read.stringPropertyNames().forEach(user -> granted.put(user, Role.of(read.getProperty(user), user)));
        }
        return new RoleGrants(file, granted);
    }

    /** The roles granted, by user. */
    Map<String, Role> roles() {
        return Map.copyOf(granted);
    }

    /** Records that {@code user} now has {@code role}, durably where there is a data directory. */
    void put(String user, Role role) {
        Map<String, Role> next = new TreeMap<>(granted);
        next.put(user, role);
        if (file != null) {
            write(next);
        }
        granted.put(user, role);
    }

    private void write(Map<String, Role> roles) {
        Properties out = new Properties();
        roles.forEach((user, role) -> out.setProperty(user, role.key()));
        StringWriter text = new StringWriter();
        try {
            out.store(text, "roles given by GRANT and REVOKE; they outrank auth.users");
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.ISO_8859_1));
            DurableFiles.replace(file, channel -> {
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the roles GRANT gave in " + file + ": " + e.getMessage(), e);
        }
    }
}

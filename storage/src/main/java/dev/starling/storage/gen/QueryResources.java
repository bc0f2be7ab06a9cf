package dev.starling.storage.gen;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads a query text from the class path, without its comment lines and final semicolon. */
final class QueryResources {
    private QueryResources() { }

    static String read(String resource) {
        try (InputStream in = QueryResources.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return sql.replaceAll("(?m)^\\s*--.*\\n?", "").trim().replaceAll(";$", "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}

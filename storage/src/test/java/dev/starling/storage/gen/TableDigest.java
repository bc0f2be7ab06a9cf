package dev.starling.storage.gen;

import dev.starling.storage.Column;
import dev.starling.storage.ColumnChunk;
import dev.starling.storage.Table;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A hash of everything stored for a table except its name: column names and types, chunk sizes,
 * value and null bytes, dictionaries and dense references. Equal digests mean the same bytes.
 */
final class TableDigest {
    private TableDigest() { }

    static String of(Table table) {
        MessageDigest digest = sha256();
        for (Column column : table.columns()) {
            update(digest, column.name() + " " + column.type() + " nullable=" + column.schema().nullable());
            if (column.isDenseCoded()) {
                update(digest, "codes of " + column.denseReference().keyColumn());
            }
            for (ColumnChunk chunk : column.chunks()) {
                update(digest, "chunk " + chunk.rows());
                digest.update(chunk.values().asByteBuffer());
                if (chunk.nulls() != null) {
                    digest.update(chunk.nulls().asByteBuffer());
                }
            }
            if (column.dictionary() != null) {
                digest.update(column.dictionary().bytes().asByteBuffer());
                digest.update(column.dictionary().offsets().asByteBuffer());
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

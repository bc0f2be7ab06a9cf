package dev.starling.storage.load;

import java.nio.file.Path;
import java.util.Locale;

/**
 * How a load file is delimited.
 *
 * @param delimiter         separates fields
 * @param header            the first record holds column names and is skipped
 * @param quoted            a field may be enclosed in double quotes (RFC 4180): it may then contain
 *                          delimiters, newlines and quotes (written twice), and is never NULL
 * @param trailingDelimiter every record ends with a delimiter, as dbgen writes them
 * @param nullText          an unquoted field equal to this is NULL
 */
public record LoadFormat(char delimiter, boolean header, boolean quoted, boolean trailingDelimiter, String nullText) {

    /** dbgen output: {@code '|'}-separated, no header, no quoting, each line ends with {@code '|'}, NULL is an empty field. */
    public static final LoadFormat TBL = new LoadFormat('|', false, false, true, "");

    /** RFC 4180: {@code ','}-separated, a header line, double quotes, NULL is an empty unquoted field. */
    public static final LoadFormat CSV = new LoadFormat(',', true, true, false, "");

    public LoadFormat {
        if (nullText == null) {
            throw new IllegalArgumentException("nullText must not be null (use \"\" for empty fields)");
        }
        if (delimiter == '\n' || delimiter == '\r' || (quoted && delimiter == '"')) {
            throw new IllegalArgumentException("'" + delimiter + "' cannot be the delimiter");
        }
    }

    /** The format a file's extension names: {@code .tbl} or {@code .csv}. */
    public static LoadFormat forFile(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot).toLowerCase(Locale.ROOT);
        return switch (extension) {
            case ".tbl" -> TBL;
            case ".csv" -> CSV;
            case "" -> throw new IllegalArgumentException("cannot tell the format of " + name
                    + ": it has no extension (expected .tbl or .csv)");
            default -> throw new IllegalArgumentException("cannot tell the format of " + name + ": extension '"
                    + extension + "' is neither .tbl nor .csv");
        };
    }
}

package dev.starling.sqllogic;

import dev.starling.sqllogic.SqlLogicRecord.Line;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits the text of a {@code .slt} file into records: blocks of lines separated by blank lines,
 * {@code #} lines being comments. A malformed record is reported with the file name and line.
 */
final class SqlLogicParser {
    private static final String SEPARATOR = "----";
    private static final String NO_DUCKDB = "no-duckdb:";

    private final String file;

    private SqlLogicParser(String file) {
        this.file = file;
    }

    static List<SqlLogicRecord> parse(String file, String text) {
        return new SqlLogicParser(file).records(text.lines().toList());
    }

    private List<SqlLogicRecord> records(List<String> lines) {
        List<SqlLogicRecord> records = new ArrayList<>();
        List<Line> block = new ArrayList<>();
        for (int i = 0; i <= lines.size(); i++) {
            String text = i < lines.size() ? lines.get(i) : "";
            if (text.startsWith("#")) {
                continue;
            }
            if (!text.isBlank()) {
                block.add(new Line(i + 1, text));
            } else if (!block.isEmpty()) {
                records.add(record(block));
                block = new ArrayList<>();
            }
        }
        return records;
    }

    /** A record from its non-comment lines. */
    private SqlLogicRecord record(List<Line> block) {
        int start = block.get(0).number();
        String head = block.get(0).text().strip();
        String keyword = head.split("\\s+", 2)[0];
        String rest = head.substring(keyword.length()).strip();
        int separator = 1;
        while (separator < block.size() && !block.get(separator).text().strip().equals(SEPARATOR)) {
            separator++;
        }
        boolean separated = separator < block.size();
        List<String> before = block.subList(1, separator).stream().map(Line::text).toList();
        List<Line> after = separated ? block.subList(separator + 1, block.size()) : List.of();
        return switch (keyword) {
            case "table" -> {
                List<String> declaration = new ArrayList<>(List.of(rest));
                declaration.addAll(before);
                yield new SqlLogicRecord.Table(start, String.join("\n", declaration), List.copyOf(after));
            }
            case "query" -> {
                if (!separated) {
                    throw malformed(start, "a query needs a " + SEPARATOR + " line before its expected rows");
                }
                yield new SqlLogicRecord.Query(start, sql(start, before), List.copyOf(after), noDuckDbReason(start, rest));
            }
            case "error" -> {
                if (separated || rest.isEmpty()) {
                    throw malformed(start, "write 'error <message fragment>' and then the query, with no "
                            + SEPARATOR + " line");
                }
                yield new SqlLogicRecord.Error(start, sql(start, before), rest);
            }
            default -> throw malformed(start, "a record starts with 'table', 'query' or 'error', not '" + keyword + "'");
        };
    }

    private String sql(int start, List<String> lines) {
        if (lines.isEmpty()) {
            throw malformed(start, "the record has no SQL");
        }
        return String.join("\n", lines);
    }

    private String noDuckDbReason(int start, String options) {
        if (options.isEmpty()) {
            return null;
        }
        if (!options.startsWith(NO_DUCKDB) || options.substring(NO_DUCKDB.length()).isBlank()) {
            throw malformed(start, "the only query option is '" + NO_DUCKDB + " <why DuckDB's answer differs>'");
        }
        return options.substring(NO_DUCKDB.length()).strip();
    }

    private IllegalArgumentException malformed(int line, String problem) {
        return new IllegalArgumentException(file + ":" + line + ": " + problem);
    }
}

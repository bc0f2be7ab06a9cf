package dev.starling.sqllogic;

import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a table declaration in the style of SQL's CREATE TABLE, without the keywords:
 * {@code name (col TYPE [NOT NULL] [PRIMARY KEY] [REFERENCES t (k)], ..., [PRIMARY KEY (a, b)],
 * [FOREIGN KEY (a) REFERENCES t (k)])}. Primary key columns are NOT NULL.
 */
final class TableDeclaration {
    private static final String NAME = "[A-Za-z_][A-Za-z0-9_.]*";
    private static final Pattern TABLE = Pattern.compile("(?s)\\s*(" + NAME + ")\\s*\\((.*)\\)\\s*");
    private static final Pattern PRIMARY_KEY = Pattern.compile("(?i)PRIMARY\\s+KEY\\s*\\(([^)]*)\\)");
    private static final Pattern FOREIGN_KEY = Pattern.compile(
            "(?i)FOREIGN\\s+KEY\\s*\\(([^)]*)\\)\\s*REFERENCES\\s+(" + NAME + ")\\s*\\(([^)]*)\\)");
    private static final Pattern COLUMN = Pattern.compile("(?i)(" + NAME + ")\\s+(.+?)(\\s+NOT\\s+NULL)?"
            + "(\\s+PRIMARY\\s+KEY)?(\\s+REFERENCES\\s+(" + NAME + ")\\s*\\(\\s*(" + NAME + ")\\s*\\))?");

    private TableDeclaration() {
    }

    static TableSchema parse(String text) {
        Matcher table = TABLE.matcher(text);
        if (!table.matches()) {
            throw new IllegalArgumentException("expected 'name (column TYPE, ...)', got: " + text);
        }
        List<ColumnSchema> columns = new ArrayList<>();
        List<String> primaryKey = new ArrayList<>();
        List<ForeignKey> foreignKeys = new ArrayList<>();
        for (String element : topLevelElements(table.group(2))) {
            Matcher m;
            if ((m = PRIMARY_KEY.matcher(element)).matches()) {
                primaryKey.addAll(names(m.group(1)));
            } else if ((m = FOREIGN_KEY.matcher(element)).matches()) {
                foreignKeys.add(new ForeignKey(names(m.group(1)), m.group(2), names(m.group(3))));
            } else if ((m = COLUMN.matcher(element)).matches()) {
                String name = m.group(1).toLowerCase(Locale.ROOT);
                boolean key = m.group(4) != null;
                columns.add(new ColumnSchema(name, DataType.parse(m.group(2)), m.group(3) == null && !key));
                if (key) {
                    primaryKey.add(name);
                }
                if (m.group(5) != null) {
                    foreignKeys.add(ForeignKey.of(name, m.group(6), m.group(7)));
                }
            } else {
                throw new IllegalArgumentException("cannot read '" + element + "': expected a column "
                        + "'name TYPE [NOT NULL] [PRIMARY KEY] [REFERENCES t (k)]', 'PRIMARY KEY (...)' "
                        + "or 'FOREIGN KEY (...) REFERENCES t (...)'");
            }
        }
        List<ColumnSchema> keyed = columns.stream()
                .map(c -> primaryKey.contains(c.name()) ? new ColumnSchema(c.name(), c.type(), false) : c)
                .toList();
        return new TableSchema(table.group(1), keyed, primaryKey, foreignKeys);
    }

    /** The comma-separated elements, leaving commas inside parentheses ({@code DECIMAL(10,2)}) alone. */
    private static List<String> topLevelElements(String body) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(body.substring(start, i).strip());
                start = i + 1;
            }
        }
        out.add(body.substring(start).strip());
        return out;
    }

    private static List<String> names(String list) {
        return Arrays.stream(list.split(",")).map(n -> n.strip().toLowerCase(Locale.ROOT)).toList();
    }
}

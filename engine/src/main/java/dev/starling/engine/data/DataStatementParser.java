package dev.starling.engine.data;

import dev.starling.exec.Settings;
import dev.starling.gpu.clone.AccessMode;
import dev.starling.storage.ColumnSchema;
import dev.starling.storage.DataType;
import dev.starling.storage.ForeignKey;
import dev.starling.storage.TableSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Recognizes and parses the statements that change data:
 * <pre>
 * CREATE TABLE [IF NOT EXISTS] t (c type [NOT NULL] [PRIMARY KEY] [REFERENCES r (k)], ...,
 *                                 [PRIMARY KEY (c, ...)], [FOREIGN KEY (c) REFERENCES r (k)])
 * DROP TABLE [IF EXISTS] t
 * CREATE [OR REPLACE] VIEW v [(c, ...)] AS query
 * DROP VIEW [IF EXISTS] v
 * INSERT INTO t [(c, ...)] {SELECT ... | VALUES ...}
 * LOAD [INTO] [TABLE] t FROM 'file' [FORMAT TBL | CSV | ARROW | PARQUET]
 * COPY {(query) | t} TO 'file' [FORMAT ARROW [STREAM] | CSV | PARQUET]
 * GENERATE {TPCH | SSB} [SCALE] [FACTOR] n [SCHEMA s]
 * SET {backend | clone_layouts | clone_budget | clone_window | oversized_join | query_timeout | memory_limit
 *      | schema} {= | TO} value
 * ALTER TABLE t SET [(] gpu_resident = {true | false} [)]
 * ANALYZE CONFLICTS ON t (c) [FOR {READ | WRITE}] [WINDOW n] [BUDGET b]
 * SHOW TABLES
 * {DESCRIBE | DESC} [TABLE] t
 * GRANT role TO user
 * REVOKE role FROM user
 * </pre>
 * Anything else is not one of them (a query). Errors point at the token at fault.
 */
public final class DataStatementParser {
    private DataStatementParser() { }

    public static Optional<DataStatement> parse(String sql) {
        Tokens t = new Tokens(sql);
        Tokens.Token first = t.peek();
        DataStatement statement;
        if (first.is("create") && (t.peek(1).is("view") || t.peek(1).is("or"))) {
            // the query runs to the end, as an INSERT's does
            return Optional.of(createView(t));
        } else if (first.is("create")) {
            statement = create(t);
        } else if (first.is("drop")) {
            statement = drop(t);
        } else if (first.is("insert")) {
            return Optional.of(insert(t));
        } else if (first.is("load")) {
            statement = load(t);
        } else if (first.is("copy")) {
            statement = copy(t);
        } else if (first.is("generate")) {
            statement = generate(t);
        } else if (first.is("set")) {
            statement = set(t);
        } else if (first.is("alter")) {
            statement = alter(t);
        } else if (first.is("analyze")) {
            statement = analyze(t);
        } else if (first.is("show")) {
            t.expect("show");
            statement = t.accept("schemas") ? new DataStatement.ShowSchemas() : showTables(t);
        } else if (first.is("grant") || first.is("revoke")) {
            statement = grantRole(t);
        } else if (first.is("describe") || first.is("desc")) {
            t.next();
            t.accept("table");
            statement = new DataStatement.Describe(t.tableName());
        } else {
            return Optional.empty();
        }
        t.expectEnd();
        return Optional.of(statement);
    }

    private static DataStatement showTables(Tokens t) {
        t.expect("tables");
        return new DataStatement.ShowTables();
    }

    private static DataStatement create(Tokens t) {
        t.expect("create");
        t.expect("table");
        boolean ifNotExists = false;
        if (t.accept("if")) {
            t.expect("not");
            t.expect("exists");
            ifNotExists = true;
        }
        String name = t.tableName();
        t.expect("(");
        List<ColumnSchema> columns = new ArrayList<>();
        List<String> primaryKey = new ArrayList<>();
        List<ForeignKey> foreignKeys = new ArrayList<>();
        do {
            if (t.accept("primary")) {
                t.expect("key");
                primaryKey.addAll(columnList(t));
            } else if (t.accept("foreign")) {
                t.expect("key");
                List<String> cols = columnList(t);
                t.expect("references");
                String table = t.tableName();
                foreignKeys.add(new ForeignKey(cols, table, columnList(t)));
            } else {
                column(t, columns, primaryKey, foreignKeys);
            }
        } while (t.accept(","));
        t.expect(")");
        try {
            return new DataStatement.CreateTable(new TableSchema(name, columns, primaryKey, foreignKeys), ifNotExists);
        } catch (IllegalArgumentException e) {
            throw t.error(0, e.getMessage());
        }
    }

    private static void column(Tokens t, List<ColumnSchema> columns, List<String> primaryKey, List<ForeignKey> fks) {
        String name = t.identifier("a column name or PRIMARY KEY or FOREIGN KEY");
        int typeAt = t.peek().offset();
        StringBuilder type = new StringBuilder(t.identifier("a column type"));
        if (type.toString().equals("double") && t.peek().is("precision")) {
            type.append(' ').append(t.next().text());
        }
        if (t.accept("(")) {
            type.append('(').append((long) t.number("a length or precision"));
            if (t.accept(",")) {
                type.append(',').append((long) t.number("a scale"));
            }
            t.expect(")");
            type.append(')');
        }
        DataType dataType;
        try {
            dataType = DataType.parse(type.toString());
        } catch (IllegalArgumentException e) {
            throw t.error(typeAt, e.getMessage());
        }
        boolean nullable = true;
        while (true) {
            if (t.accept("not")) {
                t.expect("null");
                nullable = false;
            } else if (t.accept("null")) {
                nullable = true;
            } else if (t.accept("primary")) {
                t.expect("key");
                primaryKey.add(name);
                nullable = false;
            } else if (t.accept("references")) {
                String table = t.tableName();
                fks.add(new ForeignKey(List.of(name), table, columnList(t)));
            } else {
                break;
            }
        }
        columns.add(new ColumnSchema(name, dataType, nullable));
    }

    private static List<String> columnList(Tokens t) {
        List<String> names = new ArrayList<>();
        t.expect("(");
        do {
            names.add(t.identifier("a column name"));
        } while (t.accept(","));
        t.expect(")");
        return names;
    }

    private static DataStatement createView(Tokens t) {
        t.expect("create");
        boolean orReplace = false;
        if (t.accept("or")) {
            t.expect("replace");
            orReplace = true;
        }
        t.expect("view");
        String name = t.tableName();
        List<String> columns = t.peek().text().equals("(") ? columnList(t) : List.of();
        t.expect("as");
        if (!t.peek().is("select") && !t.peek().is("with") && !t.peek().is("values") && !t.peek().text().equals("(")) {
            throw t.error(t.peek().offset(), "expected a query (SELECT, WITH or VALUES) after AS");
        }
        String query = t.sql().substring(t.restOffset()).strip().replaceAll(";$", "").strip();
        return new DataStatement.CreateView(name, columns, query, orReplace);
    }

    private static DataStatement drop(Tokens t) {
        t.expect("drop");
        if (t.accept("view")) {
            boolean ifExists = false;
            if (t.accept("if")) {
                t.expect("exists");
                ifExists = true;
            }
            return new DataStatement.DropView(t.tableName(), ifExists);
        }
        t.expect("table");
        boolean ifExists = false;
        if (t.accept("if")) {
            t.expect("exists");
            ifExists = true;
        }
        return new DataStatement.DropTable(t.tableName(), ifExists);
    }

    private static DataStatement insert(Tokens t) {
        t.expect("insert");
        t.expect("into");
        String table = t.tableName();
        List<String> columns = t.peek().text().equals("(") && !t.peek(1).is("select") && !t.peek(1).is("values")
                ? columnList(t) : List.of();
        if (!t.peek().is("select") && !t.peek().is("values") && !t.peek().text().equals("(") && !t.peek().is("with")) {
            throw t.error(t.peek().offset(), "expected SELECT or VALUES after INSERT INTO " + table);
        }
        // The rest, with its offset kept as blanks so errors in it keep their positions.
        String query = " ".repeat(t.restOffset()) + t.sql().substring(t.restOffset());
        return new DataStatement.Insert(table, columns, query.stripTrailing().replaceAll(";$", ""));
    }

    private static DataStatement load(Tokens t) {
        t.expect("load");
        t.accept("into");
        t.accept("table");
        String table = t.tableName();
        t.expect("from");
        Path file = Path.of(t.string("the file to load"));
        String format = null;
        if (t.accept("format")) {
            Tokens.Token f = t.next();
            if (!f.is("tbl") && !f.is("csv") && !f.is("arrow") && !f.is("parquet")) {
                throw t.error(f.offset(), "unknown format '" + f.text() + "': expected TBL, CSV, ARROW or PARQUET");
            }
            format = f.name();
        }
        return new DataStatement.Load(table, file, format);
    }

    /**
     * {@code COPY (query) TO 'file'}, the query between the parentheses kept at its offset (blanks
     * before it) so that its errors point where the user wrote it; or {@code COPY t TO 'file'}.
     */
    private static DataStatement copy(Tokens t) {
        t.expect("copy");
        String query;
        if (t.peek().text().equals("(")) {
            int from = t.next().offset() + 1;
            int depth = 1;
            Tokens.Token at = t.peek();
            while (depth > 0) {
                at = t.next();
                if (at.kind() == Tokens.Kind.END) {
                    throw t.error(at.offset(), "COPY's query has no closing parenthesis");
                }
                if (at.kind() == Tokens.Kind.SYMBOL) {
                    depth += at.text().equals("(") ? 1 : at.text().equals(")") ? -1 : 0;
                }
            }
            query = " ".repeat(from) + t.sql().substring(from, at.offset());
        } else {
            query = "SELECT * FROM " + t.tableName();
        }
        t.expect("to");
        Path file = Path.of(t.string("the file to write"));
        String format = null;
        if (t.accept("format")) {
            Tokens.Token f = t.next();
            if (!f.is("csv") && !f.is("arrow") && !f.is("parquet")) {
                throw t.error(f.offset(), "unknown format '" + f.text() + "': expected ARROW, ARROW STREAM, CSV or PARQUET");
            }
            format = f.is("arrow") && t.accept("stream") ? "arrow stream" : f.name();
        }
        return new DataStatement.CopyTo(query, file, format);
    }

    /**
     * {@code SET backend = 'gpu'} (or {@code TO}, with or without quotes): one of the session's
     * {@link Settings}, its value checked here so a bad one points at itself.
     */
    private static DataStatement set(Tokens t) {
        t.expect("set");
        Tokens.Token name = t.peek();
        String option = t.identifier("a setting name");
        if (!Settings.NAMES.contains(option)) {
            throw t.error(name.offset(), "unknown setting '" + name.text() + "': the settings are: "
                    + String.join(", ", Settings.NAMES));
        }
        if (!t.accept("=")) {
            t.expect("to");
        }
        Tokens.Token value = t.next();
        String v = value.kind() == Tokens.Kind.STRING || value.kind() == Tokens.Kind.NUMBER
                ? value.text().toLowerCase(java.util.Locale.ROOT) : value.name();
        try {
            Settings.DEFAULT.with(option, v);
        } catch (IllegalArgumentException e) {
            throw t.error(value.offset(), e.getMessage());
        }
        return new DataStatement.SetOption(option, v);
    }

    private static DataStatement alter(Tokens t) {
        t.expect("alter");
        t.expect("table");
        String table = t.tableName();
        t.expect("set");
        boolean parenthesized = t.accept("(");
        Tokens.Token name = t.peek();
        String option = t.identifier("a table option");
        if (!option.equals("gpu_resident")) {
            throw t.error(name.offset(), "unknown table option '" + name.text() + "': the options are: gpu_resident");
        }
        t.expect("=");
        Tokens.Token value = t.next();
        if (!value.is("true") && !value.is("false")) {
            throw t.error(value.offset(), "gpu_resident must be true or false, not '" + value.text() + "'");
        }
        if (parenthesized) {
            t.expect(")");
        }
        return new DataStatement.SetGpuResident(table, value.is("true"));
    }

    private static DataStatement analyze(Tokens t) {
        t.expect("analyze");
        t.expect("conflicts");
        t.expect("on");
        String table = t.tableName();
        t.expect("(");
        String column = t.identifier("a column name");
        t.expect(")");
        AccessMode mode = AccessMode.READ;
        if (t.accept("for")) {
            Tokens.Token m = t.next();
            if (!m.is("read") && !m.is("write")) {
                throw t.error(m.offset(), "expected READ or WRITE but found '" + m.text() + "'");
            }
            mode = m.is("read") ? AccessMode.READ : AccessMode.WRITE;
        }
        int window = 0;
        if (t.accept("window")) {
            Tokens.Token w = t.peek();
            double n = t.number("a window in chunks");
            if (n < 0 || n != Math.rint(n) || n > 1024) {
                throw t.error(w.offset(), "a window is a whole number of chunks from 0 to 1024, not " + w.text());
            }
            window = (int) n;
        }
        double budget = 0;
        if (t.accept("budget")) {
            Tokens.Token b = t.peek();
            budget = t.number("a budget in copies per value");
            if (budget < 1 || budget > 64) {
                throw t.error(b.offset(), "a budget is from 1 to 64 copies per value, not " + b.text());
            }
        }
        return new DataStatement.AnalyzeConflicts(table, column, mode, window, budget);
    }

    private static DataStatement grantRole(Tokens t) {
        boolean grant = t.next().is("grant");
        String role = t.identifier("a role (admin or reader)");
        t.expect(grant ? "to" : "from");
        return new DataStatement.GrantRole(role, t.identifier("a user name"), grant);
    }

    private static DataStatement generate(Tokens t) {
        t.expect("generate");
        Tokens.Token which = t.next();
        if (!which.is("tpch") && !which.is("ssb")) {
            throw t.error(which.offset(), "expected TPCH or SSB but found '" + which.text() + "'");
        }
        t.accept("scale");
        t.accept("factor");
        double sf = t.number("a scale factor");
        String schema = t.accept("schema") ? t.identifier("a schema name") : "";
        return new DataStatement.Generate(which.name(), sf, schema);
    }
}

package dev.starling.engine.data;

import dev.starling.gpu.clone.AccessMode;
import dev.starling.storage.TableSchema;
import java.nio.file.Path;
import java.util.List;

/** A statement that changes data or tables rather than reading them. */
public sealed interface DataStatement {

    record CreateTable(TableSchema schema, boolean ifNotExists) implements DataStatement { }

    record DropTable(String table, boolean ifExists) implements DataStatement { }

    /** CREATE [OR REPLACE] VIEW v [(c, ...)] AS query. */
    record CreateView(String view, List<String> columns, String query, boolean orReplace) implements DataStatement { }

    /** DROP VIEW [IF EXISTS] v. */
    record DropView(String view, boolean ifExists) implements DataStatement { }

    /** {@code columns} empty: all, in order; {@code query} is the SELECT or VALUES whose rows go in. */
    record Insert(String table, List<String> columns, String query) implements DataStatement { }

    /** {@code format} null: from the file's extension. */
    record Load(String table, Path file, String format) implements DataStatement { }

    /** {@code COPY {(query) | t} TO 'file' [FORMAT ARROW [STREAM] | CSV]}: the query's rows (a table's: all of them) written to a file. */
    record CopyTo(String query, Path file, String format) implements DataStatement { }

    /** {@code SET name = value}: a setting of the session (the embedded engine's, or a server connection's). */
    record SetOption(String name, String value) implements DataStatement { }

    /** {@code ALTER TABLE t SET (gpu_resident = true | false)}: keep a table's columns in GPU memory, or stop. */
    record SetGpuResident(String table, boolean resident) implements DataStatement { }

    /**
     * {@code ANALYZE CONFLICTS ON t (c) [FOR READ | WRITE] [WINDOW n] [BUDGET b]}: how column c's
     * codes meet shared memory's banks, and with a budget (copies per value) a clone layout's.
     */
    record AnalyzeConflicts(String table, String column, AccessMode mode, int window, double budget)
            implements DataStatement { }

    /** {@code SHOW TABLES}: the catalog's tables and views, with their schemas, types and (tables') rows. */
    record ShowTables() implements DataStatement { }

    /** {@code SHOW SCHEMAS}: the schemas the catalog's tables are in, {@code information_schema} among them. */
    record ShowSchemas() implements DataStatement { }

    /** {@code DESCRIBE t} (or {@code DESC t}): a table's columns, types and keys. */
    record Describe(String table) implements DataStatement { }

    /** Generates a benchmark's tables ({@code tpch} or {@code ssb}) at a scale factor into a schema ("" for none). */
    record Generate(String benchmark, double scaleFactor, String schema) implements DataStatement { }

    /**
     * Gives user {@code user} role {@code role} ({@code GRANT role TO user}), or takes it back
     * ({@code REVOKE role FROM user}): the roles of a server's configured users, which the server
     * runs (the embedded API has no users).
     */
    record GrantRole(String role, String user, boolean grant) implements DataStatement { }
}

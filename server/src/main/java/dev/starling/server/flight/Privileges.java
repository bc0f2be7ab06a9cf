package dev.starling.server.flight;

import dev.starling.engine.PreparedQuery;
import dev.starling.engine.data.DataStatement;
import dev.starling.server.config.Role;
import dev.starling.server.config.ServerConfig;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.flight.CallStatus;

/**
 * Who may run what: each configured user has a role; where the server asks for no passwords
 * (loopback only) every client is an administrator. A reader's queries and its own session's SET
 * run; a statement that changes tables, data or what the server keeps is refused before it runs.
 */
final class Privileges {
    private final Map<String, Role> roles;
    private final boolean passwords;

    private Privileges(Map<String, Role> roles, boolean passwords) {
        this.roles = roles;
        this.passwords = passwords;
    }

    /** The roles of {@code auth}'s users (validated: {@code ConfigLoader.validate}); none where it asks for no passwords. */
    static Privileges of(ServerConfig.Auth auth) {
        return auth.required()
                ? new Privileges(auth.users().stream().collect(Collectors.toUnmodifiableMap(ServerConfig.User::name,
                        u -> Role.of(u.role(), u.name()))), true)
                : new Privileges(Map.of(), false);
    }

    /** Whether {@code user} is an administrator (every client is, where the server asks for no passwords). */
    boolean administers(String user) {
        return !passwords || roles.get(user) == Role.ADMIN;
    }

    /**
     * Checks that {@code user} may run {@code q}: PERMISSION_DENIED (Flight's UNAUTHORIZED), naming
     * what and who may, where not.
     */
    void check(String user, PreparedQuery q) {
        if (!q.isUpdate() || q.isSet() || administers(user)) {
            return;
        }
        throw CallStatus.UNAUTHORIZED.withDescription("user " + user + " (role " + roles.getOrDefault(user, Role.READER).key()
                + ") may not run " + verb(q.update()) + ": only an administrator may (auth.users: role admin)")
                .toRuntimeException();
    }

    /** What a statement is called in a refusal. */
    private static String verb(DataStatement statement) {
        return switch (statement) {
            case DataStatement.CreateTable c -> "CREATE TABLE";
            case DataStatement.DropTable d -> "DROP TABLE";
            case DataStatement.CreateView v -> "CREATE VIEW";
            case DataStatement.DropView d -> "DROP VIEW";
            case DataStatement.Insert i -> "INSERT";
            case DataStatement.Load l -> "LOAD";
            case DataStatement.Generate g -> "GENERATE";
            case DataStatement.SetGpuResident r -> "ALTER TABLE";
            case DataStatement.SetOption o -> "SET";
            case DataStatement.AnalyzeConflicts a -> "ANALYZE CONFLICTS";
            case DataStatement.ShowTables s -> "SHOW TABLES";
            case DataStatement.ShowSchemas s -> "SHOW SCHEMAS";
            case DataStatement.Describe d -> "DESCRIBE";
        };
    }
}

package dev.starling.server.flight;

import dev.starling.engine.PreparedQuery;
import dev.starling.engine.data.DataStatement;
import dev.starling.exec.Settings;
import dev.starling.server.config.Role;
import dev.starling.server.config.ServerConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.arrow.flight.CallStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may run what: each configured user has a role, the configuration's unless GRANT or REVOKE
 * gave another; where the server asks for no passwords (loopback only) every client is an
 * administrator. A reader's queries and its own session's SET
 * run, but its {@code query_timeout} and {@code memory_limit} stay within the server's
 * {@code query.timeout} and {@code query.memory_limit}; a statement that changes tables, data or
 * what the server keeps is refused before it runs.
 */
final class Privileges {
    private static final Logger LOG = LoggerFactory.getLogger(Privileges.class);

    private final Map<String, Role> roles;
    private final boolean passwords;
    private final Duration queryLimit;
    private final long memoryLimit;
    private final RoleGrants grants;

    private Privileges(Map<String, Role> roles, boolean passwords, ServerConfig.Query limits, RoleGrants grants) {
        this.roles = new ConcurrentHashMap<>(roles);
        this.passwords = passwords;
        this.queryLimit = limits.timeoutDuration();
        this.memoryLimit = limits.memoryLimitBytes();
        this.grants = grants;
        grants.roles().forEach((user, role) -> this.roles.computeIfPresent(user, (u, configured) -> role));
    }

    /**
     * The roles of {@code auth}'s users (validated: {@code ConfigLoader.validate}), those GRANT and
     * REVOKE gave outranking the configuration's, none where it asks for no passwords;
     * {@code limits}: the server's {@code query.timeout} and {@code query.memory_limit}, validated.
     */
    static Privileges of(ServerConfig.Auth auth, ServerConfig.Query limits, RoleGrants grants) {
        return auth.required()
                ? new Privileges(auth.users().stream().collect(Collectors.toUnmodifiableMap(ServerConfig.User::name,
                        u -> Role.of(u.role(), u.name()))), true, limits, grants)
                : new Privileges(Map.of(), false, limits, grants);
    }

    /** Whether {@code user} is an administrator (every client is, where the server asks for no passwords). */
    boolean administers(String user) {
        return !passwords || roles.get(user) == Role.ADMIN;
    }

    /** Checks that {@code user} is an administrator, who alone may {@code what}. */
    void checkAdministers(String user, String what) {
        if (!administers(user)) {
            throw refused(user, what);
        }
    }

    /**
     * Checks that {@code user} may run {@code q}: PERMISSION_DENIED (Flight's UNAUTHORIZED), naming
     * what and who may, where not.
     */
    void check(String user, PreparedQuery q) {
        if (!q.isUpdate() || administers(user)) {
            return;
        }
        if (q.isSet()) {
            checkLimit(user, (DataStatement.SetOption) q.update());
            return;
        }
        throw refused(user, "run " + verb(q.update()));
    }

    /**
     * Runs {@code g} for administrator {@code issuer} (checked): GRANT gives a configured user a
     * role, REVOKE admin makes an administrator a reader. The last administrator stays one, so that
     * someone can still grant; a grant is kept where the server keeps its data.
     */
    synchronized void grant(String issuer, DataStatement.GrantRole g) {
        String statement = g.grant() ? "GRANT" : "REVOKE";
        if (!passwords) {
            throw invalid(statement + " sets the roles of the users in auth.users; with auth.mode none there are none "
                    + "(every client is an administrator)");
        }
        Role named = Role.named(g.role())
                .orElseThrow(() -> invalid("no role " + g.role() + ": the roles are admin and reader"));
        if (!roles.containsKey(g.user())) {
            throw invalid("no user " + g.user() + " in auth.users");
        }
        if (!g.grant() && named == Role.READER) {
            throw invalid("every user may read: REVOKE admin FROM " + g.user() + " makes an administrator a reader");
        }
        Role role = g.grant() ? named : Role.READER;
        if (role == Role.READER && roles.get(g.user()) == Role.ADMIN
                && roles.values().stream().filter(r -> r == Role.ADMIN).count() == 1) {
            throw invalid("user " + g.user() + " is the last administrator; grant admin to another user first");
        }
        grants.put(g.user(), role);
        roles.put(g.user(), role);
        LOG.info("{}: user {} now has role {} (by {})", statement, g.user(), role.key(), issuer);
    }

    private static RuntimeException invalid(String message) {
        return CallStatus.INVALID_ARGUMENT.withDescription(message).toRuntimeException();
    }

    /**
     * A reader may lower its session's {@code query_timeout} and {@code memory_limit}, not raise
     * them past the server's limits nor lift them (0): the limits are what keep one user's query
     * from holding the server's workers and memory. The parser has checked the value
     * ({@code DataStatementParser}).
     */
    private void checkLimit(String user, DataStatement.SetOption set) {
        String name = set.name().toLowerCase(java.util.Locale.ROOT);
        if (name.equals("query_timeout") && !queryLimit.isZero()) {
            Duration asked = Settings.duration(name, set.value());
            if (asked.isZero() || asked.compareTo(queryLimit) > 0) {
                throw refused(user, "SET query_timeout to " + (asked.isZero() ? "no limit" : set.value().trim())
                        + ", past the server's query.timeout of " + Settings.describe(queryLimit));
            }
        } else if (name.equals("memory_limit") && memoryLimit > 0) {
            long asked = Settings.size(name, set.value());
            if (asked == 0 || asked > memoryLimit) {
                throw refused(user, "SET memory_limit to " + (asked == 0 ? "no limit" : Settings.describeSize(asked))
                        + ", past the server's query.memory_limit of " + Settings.describeSize(memoryLimit));
            }
        }
    }

    private RuntimeException refused(String user, String what) {
        return CallStatus.UNAUTHORIZED.withDescription("user " + user + " (role " + roles.getOrDefault(user, Role.READER).key()
                + ") may not " + what + ": only an administrator may (auth.users: role admin)").toRuntimeException();
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
            case DataStatement.CopyTo c -> "COPY";
            case DataStatement.Generate g -> "GENERATE";
            case DataStatement.SetGpuResident r -> "ALTER TABLE";
            case DataStatement.SetOption o -> "SET";
            case DataStatement.AnalyzeConflicts a -> "ANALYZE CONFLICTS";
            case DataStatement.ShowTables s -> "SHOW TABLES";
            case DataStatement.ShowSchemas s -> "SHOW SCHEMAS";
            case DataStatement.Describe d -> "DESCRIBE";
            case DataStatement.GrantRole g -> g.grant() ? "GRANT" : "REVOKE";
        };
    }
}

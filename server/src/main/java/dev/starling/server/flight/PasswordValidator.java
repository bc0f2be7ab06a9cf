package dev.starling.server.flight;

import at.favre.lib.crypto.bcrypt.BCrypt;
import dev.starling.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/**
 * Checks a user's password against the bcrypt hash configured for that user. The answer must not
 * tell which users exist: an unknown name gets the same message, and its password is checked
 * against the configured hash of the highest cost (and refused whatever the check says), so that
 * it takes as long. Guessing is slowed by a {@link LoginThrottle}.
 */
final class PasswordValidator implements BasicCallHeaderAuthenticator.CredentialValidator {
    private static final String WRONG = "wrong user name or password";
    private final Map<String, byte[]> hashes = new HashMap<>();
    private final byte[] decoy;
    private final LoginThrottle throttle;

    PasswordValidator(List<ServerConfig.User> users) {
        this(users, Clock.systemUTC());
    }

    PasswordValidator(List<ServerConfig.User> users, Clock clock) {
        for (ServerConfig.User u : users) {
            hashes.put(u.name(), u.passwordHash().getBytes(StandardCharsets.UTF_8));
        }
        // "$2b$12$...": the cost is the two digits after the version
        this.decoy = users.stream().map(ServerConfig.User::passwordHash)
                .max(Comparator.comparingInt(h -> Integer.parseInt(h.substring(4, 6))))
                .orElseThrow(() -> new IllegalArgumentException("password logins need at least one user"))
                .getBytes(StandardCharsets.UTF_8);
        this.throttle = new LoginThrottle(clock);
    }

    @Override
    public CallHeaderAuthenticator.AuthResult validate(String user, String password) {
        if (!throttle.allows(user)) {
            throw CallStatus.UNAUTHENTICATED.withDescription("too many failed logins for this user name; try again in "
                    + LoginThrottle.WINDOW.toMinutes() + " minutes").toRuntimeException();
        }
        byte[] hash = hashes.get(user);
        boolean verified = BCrypt.verifyer().verify(password.toCharArray(), hash == null ? decoy : hash).verified;
        if (hash == null || !verified) {
            throttle.failed(user);
            throw CallStatus.UNAUTHENTICATED.withDescription(WRONG).toRuntimeException();
        }
        throttle.succeeded(user);
        return () -> user;
    }

    /** A bcrypt hash of {@code password} for the configuration file. */
    static String hash(char[] password) {
        return BCrypt.withDefaults().hashToString(12, password);
    }
}

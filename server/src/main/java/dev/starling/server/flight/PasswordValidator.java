package dev.starling.server.flight;

import at.favre.lib.crypto.bcrypt.BCrypt;
import dev.starling.server.config.ServerConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/** Checks a user's password against the bcrypt hash configured for that user. */
final class PasswordValidator implements BasicCallHeaderAuthenticator.CredentialValidator {
    private final Map<String, byte[]> hashes = new HashMap<>();

    PasswordValidator(List<ServerConfig.User> users) {
        for (ServerConfig.User u : users) {
            hashes.put(u.name(), u.passwordHash().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Override
    public CallHeaderAuthenticator.AuthResult validate(String user, String password) {
        byte[] hash = hashes.get(user);
        // The same message either way: the answer must not tell which users exist.
        if (hash == null || !BCrypt.verifyer().verify(password.toCharArray(), hash).verified) {
            throw CallStatus.UNAUTHENTICATED.withDescription("wrong user name or password").toRuntimeException();
        }
        return () -> user;
    }

    /** A bcrypt hash of {@code password} for the configuration file. */
    static String hash(char[] password) {
        return BCrypt.withDefaults().hashToString(12, password);
    }
}

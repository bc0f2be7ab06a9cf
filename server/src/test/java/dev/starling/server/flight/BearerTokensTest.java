package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import at.favre.lib.crypto.bcrypt.BCrypt;
import com.google.common.base.Ticker;
import dev.starling.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.auth2.Auth2Constants;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.junit.jupiter.api.Test;

/**
 * A bearer token stays valid while its client uses it (a connection at work past the token's
 * lifetime keeps its session) and expires once left unused for that long.
 */
class BearerTokensTest {
    private long nanos;
    private final Ticker ticker = new Ticker() {
        @Override
        public long read() {
            return nanos;
        }
    };
    private final CallHeaderAuthenticator tokens = BearerTokens.authenticator(new PasswordValidator(List.of(
            new ServerConfig.User("ann", BCrypt.withDefaults().hashToString(4, "right".toCharArray())))),
            Duration.ofMinutes(60), ticker);

    @Test
    void aTokenInUseOutlivesItsLifetimeAndAnUnusedOneExpires() {
        String token = login();
        for (int minute = 0; minute < 180; minute += 30) {
            nanos += Duration.ofMinutes(30).toNanos();
            assertEquals("ann", call(token), "a call " + minute + " minutes on");
        }
        nanos += Duration.ofMinutes(61).toNanos();
        FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> call(token));
        assertEquals(CallStatus.UNAUTHENTICATED.code(), e.status().code());
        assertEquals("ann", call(login()), "logging in again gives a new token");
    }

    /** Logs in as ann with her password; returns the bearer token the answer carries. */
    private String login() {
        FlightCallHeaders in = new FlightCallHeaders();
        in.insert(Auth2Constants.AUTHORIZATION_HEADER, Auth2Constants.BASIC_PREFIX
                + Base64.getEncoder().encodeToString("ann:right".getBytes(StandardCharsets.UTF_8)));
        FlightCallHeaders out = new FlightCallHeaders();
        tokens.authenticate(in).appendToOutgoingHeaders(out);
        return out.get(Auth2Constants.AUTHORIZATION_HEADER).substring(Auth2Constants.BEARER_PREFIX.length());
    }

    /** A call carrying {@code token}: the identity it authenticates. */
    private String call(String token) {
        FlightCallHeaders in = new FlightCallHeaders();
        in.insert(Auth2Constants.AUTHORIZATION_HEADER, Auth2Constants.BEARER_PREFIX + token);
        return tokens.authenticate(in).getPeerIdentity();
    }
}

package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import at.favre.lib.crypto.bcrypt.BCrypt;
import dev.starling.server.config.ServerConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.junit.jupiter.api.Test;

/**
 * Logins: the right password answers; a wrong one and an unknown name get the same answer; five
 * failures lock a name (known or not) for the window, and only that name; a success clears them.
 */
class PasswordValidatorTest {
    private final MovingClock clock = new MovingClock();
    private final PasswordValidator validator = new PasswordValidator(List.of(
            new ServerConfig.User("ann", BCrypt.withDefaults().hashToString(4, "right".toCharArray())),
            new ServerConfig.User("bob", BCrypt.withDefaults().hashToString(4, "other".toCharArray()))), clock);

    @Test
    void aWrongPasswordAndAnUnknownNameAnswerAlike() {
        assertEquals("ann", validator.validate("ann", "right").getPeerIdentity());
        assertEquals(refusal("ann", "wrong"), refusal("zed", "right"));
        assertEquals("wrong user name or password", refusal("ann", "wrong"));
    }

    @Test
    void fiveFailuresLockTheNameForTheWindow() {
        for (int i = 0; i < LoginThrottle.MAX_FAILURES; i++) {
            refusal("ann", "guess" + i);
        }
        assertTrue(refusal("ann", "right").startsWith("too many failed logins"));
        assertEquals("bob", validator.validate("bob", "other").getPeerIdentity());
        clock.advance(LoginThrottle.WINDOW.plusSeconds(1));
        assertEquals("ann", validator.validate("ann", "right").getPeerIdentity());
    }

    @Test
    void unknownNamesAreLockedAlike() {
        for (int i = 0; i < LoginThrottle.MAX_FAILURES; i++) {
            refusal("zed", "guess" + i);
        }
        assertTrue(refusal("zed", "guess").startsWith("too many failed logins"));
    }

    @Test
    void aSuccessClearsTheFailures() {
        for (int i = 0; i < LoginThrottle.MAX_FAILURES - 1; i++) {
            refusal("ann", "guess" + i);
        }
        validator.validate("ann", "right");
        for (int i = 0; i < LoginThrottle.MAX_FAILURES - 1; i++) {
            refusal("ann", "guess" + i);
        }
        assertEquals("ann", validator.validate("ann", "right").getPeerIdentity());
    }

    private String refusal(String user, String password) {
        FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> validator.validate(user, password));
        assertEquals(CallStatus.UNAUTHENTICATED.code(), e.status().code());
        return e.status().description();
    }

    private static final class MovingClock extends Clock {
        private Instant now = Instant.parse("2026-11-25T12:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

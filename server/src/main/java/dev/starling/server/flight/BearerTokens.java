package dev.starling.server.flight;

import com.google.common.base.Ticker;
import com.google.common.cache.CacheBuilder;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.GeneratedBearerTokenAuthenticator;

/**
 * Password logins exchanged for bearer tokens: a client's user name and password are checked once
 * and answered with a token that its later calls carry. A token stays valid while it is used: it
 * expires {@code idle} after its last call, so a JDBC connection at work never loses its session,
 * and one left unused must log in again.
 */
final class BearerTokens {
    private BearerTokens() { }

    static CallHeaderAuthenticator authenticator(BasicCallHeaderAuthenticator.CredentialValidator passwords,
                                                 Duration idle) {
        return authenticator(passwords, idle, Ticker.systemTicker());
    }

    /** As {@link #authenticator(BasicCallHeaderAuthenticator.CredentialValidator, Duration)}, timed by {@code ticker}. */
    static CallHeaderAuthenticator authenticator(BasicCallHeaderAuthenticator.CredentialValidator passwords,
                                                 Duration idle, Ticker ticker) {
        return new GeneratedBearerTokenAuthenticator(new BasicCallHeaderAuthenticator(passwords),
                CacheBuilder.newBuilder().ticker(ticker).expireAfterAccess(idle.toNanos(), TimeUnit.NANOSECONDS));
    }
}

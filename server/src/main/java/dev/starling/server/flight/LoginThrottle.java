package dev.starling.server.flight;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Slows password guessing: after {@link #MAX_FAILURES} failed logins for one user name within
 * {@link #WINDOW}, that name is refused for the rest of the window, whatever the password. Names
 * that exist and names that do not are counted alike, so a lockout says nothing about which
 * users exist. A successful login clears the name's failures.
 */
final class LoginThrottle {
    static final int MAX_FAILURES = 5;
    static final Duration WINDOW = Duration.ofMinutes(15);
    /** Names tracked at most: a flood of made-up names cannot grow the map without bound. */
    private static final int MAX_NAMES = 100_000;

    private final Clock clock;
    private final ConcurrentMap<String, Deque<Instant>> failures = new ConcurrentHashMap<>();

    LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    /** Whether {@code user} may try a password now. */
    boolean allows(String user) {
        Deque<Instant> recent = failures.get(user);
        if (recent == null) {
            return true;
        }
        synchronized (recent) {
            forgetOld(recent);
            return recent.size() < MAX_FAILURES;
        }
    }

    void failed(String user) {
        if (failures.size() >= MAX_NAMES) {
            failures.entrySet().removeIf(e -> {
                synchronized (e.getValue()) {
                    forgetOld(e.getValue());
                    return e.getValue().isEmpty();
                }
            });
        }
        Deque<Instant> recent = failures.computeIfAbsent(user, u -> new ArrayDeque<>());
        synchronized (recent) {
            forgetOld(recent);
            recent.addLast(clock.instant());
        }
    }

    void succeeded(String user) {
        failures.remove(user);
    }

    private void forgetOld(Deque<Instant> recent) {
        Instant since = clock.instant().minus(WINDOW);
        while (!recent.isEmpty() && recent.peekFirst().isBefore(since)) {
            recent.removeFirst();
        }
    }
}

package dev.starling.server.config;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a user may do: an administrator anything (tables and views made and dropped, INSERT, LOAD,
 * GENERATE, what stays in GPU memory), a reader query and set its own session's settings.
 */
public enum Role {
    ADMIN, READER;

    /** How the configuration spells it. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The role the configuration names {@code key}, in any case ("Admin" from an environment
     * variable is an administrator); an unknown one is a {@link ConfigException} naming the user.
     */
    public static Role of(String key, String user) {
        return named(key).orElseThrow(() -> new ConfigException("auth.users: the role of user " + user + " must be "
                + Arrays.stream(values()).map(Role::key).collect(Collectors.joining(" or ")) + ", not '" + key + "'"));
    }

    /** The role named {@code key}, in any case, if there is one. */
    public static Optional<Role> named(String key) {
        return Arrays.stream(values()).filter(r -> r.key().equalsIgnoreCase(key.trim())).findFirst();
    }
}

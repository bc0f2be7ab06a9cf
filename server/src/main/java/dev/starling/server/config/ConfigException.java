package dev.starling.server.config;

/** The configuration is invalid; the message names the key (or variable, or flag) and what is wrong. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}

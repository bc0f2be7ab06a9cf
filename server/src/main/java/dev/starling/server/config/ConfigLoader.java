package dev.starling.server.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads {@code starling.yaml} with Jackson, lays environment variables over it
 * ({@code STARLING_BIND}, {@code STARLING_PORT}, {@code STARLING_DATA_DIR}, {@code STARLING_AUTH},
 * {@code STARLING_TLS_CERT}, {@code STARLING_TLS_KEY}, {@code STARLING_GPU},
 * {@code STARLING_GPU_PROFILE}, {@code STARLING_QUERY_TIMEOUT}) and checks the result. Every error names the key or variable at fault.
 */
public final class ConfigLoader {
    /** A bcrypt hash as written: version, cost, then salt and digest in bcrypt's base-64. */
    private static final Pattern BCRYPT =
            Pattern.compile("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ConfigLoader() { }

    /** The file's configuration (the defaults when {@code file} is null) with {@code env} laid over it. */
    public static ServerConfig load(Path file, Map<String, String> env) {
        ServerConfig fromFile = file == null ? ServerConfig.defaults() : read(file);
        return withEnvironment(fromFile, env);
    }

    static ServerConfig read(Path file) {
        if (!Files.isReadable(file)) {
            throw new ConfigException("cannot read configuration file " + file);
        }
        try {
            ServerConfig c = YAML.readValue(file.toFile(), ServerConfig.class);
            return c == null ? ServerConfig.defaults() : c;
        } catch (UnrecognizedPropertyException e) {
            // No line: an object read into a record is read whole before its unknown keys are reported.
            throw new ConfigException(file + ": unknown key '" + key(e) + "'; known keys here: " + e.getKnownPropertyIds().stream().map(Object::toString)
                    .map(ConfigLoader::snake).sorted().collect(Collectors.joining(", ")));
        } catch (JsonMappingException e) {
            throw new ConfigException(file + ": key '" + key(e) + "'" + line(e) + ": "
                    + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ConfigException(file + ": not valid YAML: " + e.getMessage());
        }
    }

    private static String key(JsonMappingException e) {
        return e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    /** The line of the token at fault (the exception's own location is past it). */
    private static String line(JsonMappingException e) {
        JsonLocation at = e.getProcessor() instanceof JsonParser p ? p.currentTokenLocation() : e.getLocation();
        return at == null || at.getLineNr() < 0 ? "" : " (line " + at.getLineNr() + ")";
    }

    private static String snake(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    static ServerConfig withEnvironment(ServerConfig c, Map<String, String> env) {
        ServerConfig.Listen listen = new ServerConfig.Listen(env.getOrDefault("STARLING_BIND", c.listen().bind()),
                env.containsKey("STARLING_PORT") ? number("STARLING_PORT", env.get("STARLING_PORT")) : c.listen().port());
        Path dataDir = env.containsKey("STARLING_DATA_DIR") ? Path.of(env.get("STARLING_DATA_DIR")) : c.dataDir();
        ServerConfig.Auth auth = env.containsKey("STARLING_AUTH")
                ? new ServerConfig.Auth(env.get("STARLING_AUTH"), c.auth().users(), c.auth().tokenMinutes()) : c.auth();
        ServerConfig.Tls tls = new ServerConfig.Tls(
                env.containsKey("STARLING_TLS_CERT") ? Path.of(env.get("STARLING_TLS_CERT")) : c.tls().cert(),
                env.containsKey("STARLING_TLS_KEY") ? Path.of(env.get("STARLING_TLS_KEY")) : c.tls().key());
        ServerConfig.Gpu gpu = env.containsKey("STARLING_GPU")
                ? c.gpu().withEnabled(!env.get("STARLING_GPU").equalsIgnoreCase("off")) : c.gpu();
        if (env.containsKey("STARLING_GPU_PROFILE")) {
            gpu = gpu.withProfile(env.get("STARLING_GPU_PROFILE"));
        }
        ServerConfig.Query query = env.containsKey("STARLING_QUERY_TIMEOUT")
                ? new ServerConfig.Query(env.get("STARLING_QUERY_TIMEOUT")) : c.query();
        return new ServerConfig(listen, dataDir, c.demo(), auth, tls, gpu, c.memory(), c.metrics(), query);
    }

    private static int number(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(name + "='" + value + "' is not a number");
        }
    }

    /** Checks what no single key can: ranges, pairs of keys, and that an open server asks for passwords. */
    public static ServerConfig validate(ServerConfig c) {
        if (c.listen().port() < 0 || c.listen().port() > 65535) {
            throw new ConfigException("listen.port must be 0..65535, not " + c.listen().port());
        }
        switch (c.auth().mode()) {
            case "none" -> {
                if (!isLoopback(c.listen().bind())) {
                    throw new ConfigException("auth.mode none serves anyone who can reach the port, so it only "
                            + "listens on a loopback address; listen.bind is " + c.listen().bind()
                            + ": set auth.mode to password (with auth.users) or bind 127.0.0.1");
                }
            }
            case "password" -> {
                if (c.auth().users().isEmpty()) {
                    throw new ConfigException("auth.mode password needs at least one entry in auth.users");
                }
                for (ServerConfig.User u : c.auth().users()) {
                    if (u.name() == null || u.passwordHash() == null) {
                        throw new ConfigException("auth.users: each user needs a name and a bcrypt password_hash "
                                + "(bin/starling --hash-password makes one)");
                    }
                    if (!BCRYPT.matcher(u.passwordHash()).matches()) {
                        throw new ConfigException("auth.users: the password_hash of user " + u.name() + " is not a "
                                + "bcrypt hash ($2a$, $2b$ or $2y$, a cost of 04 to 31, then 53 characters; "
                                + "bin/starling --hash-password makes one)");
                    }
                }
            }
            default -> throw new ConfigException("auth.mode must be none or password, not '" + c.auth().mode() + "'");
        }
        if (c.auth().tokenMinutes() <= 0) {
            throw new ConfigException("auth.token_minutes must be positive, not " + c.auth().tokenMinutes());
        }
        if ((c.tls().cert() == null) != (c.tls().key() == null)) {
            throw new ConfigException("tls.cert and tls.key go together: give both or neither");
        }
        if (c.tls().enabled() && (!Files.isReadable(c.tls().cert()) || !Files.isReadable(c.tls().key()))) {
            throw new ConfigException("tls.cert " + c.tls().cert() + " or tls.key " + c.tls().key() + " cannot be read");
        }
        if (c.memory().resultBufferBytes() < (1 << 20)) {
            throw new ConfigException("memory.result_buffer_bytes must be at least 1048576, not "
                    + c.memory().resultBufferBytes());
        }
        if (c.gpu().pinnedKeepBytes() < 0 || c.gpu().mappedKeepBytes() < 0) {
            throw new ConfigException("gpu.pinned_keep_bytes and gpu.mapped_keep_bytes cannot be negative");
        }
        if (c.gpu().profile() != null) {
            try {
                c.gpu().options();
            } catch (IllegalArgumentException e) {
                throw new ConfigException("gpu.profile: " + e.getMessage());
            }
        }
        try {
            c.query().timeoutDuration();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        if (c.demo().scaleFactor() <= 0) {
            throw new ConfigException("demo.scale_factor must be positive, not " + c.demo().scaleFactor());
        }
        return c;
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new ConfigException("listen.bind: unknown host " + host);
        }
    }
}

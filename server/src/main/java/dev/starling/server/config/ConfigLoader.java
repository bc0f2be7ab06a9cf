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
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads {@code starling.yaml} with Jackson, lays environment variables over it and checks the
 * result. Every key has a variable: {@code STARLING_<SECTION>_<KEY>} for a key in a section
 * ({@code STARLING_GPU_BUDGET_BYTES} for {@code gpu.budget_bytes}), {@code STARLING_<KEY>} for a
 * top-level one ({@code STARLING_DATA_DIR}); lists are comma-separated ({@code auth.users} as
 * {@code name:hash} pairs). The shorter {@code STARLING_BIND}, {@code STARLING_PORT},
 * {@code STARLING_AUTH} and {@code STARLING_GPU} stand for {@code listen.bind}, {@code listen.port},
 * {@code auth.mode} and {@code gpu.enabled}. Every error names the key or variable at fault.
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

    /** Short variables for the keys a newcomer sets first, and the variables they stand for. */
    private static final Map<String, String> SHORT_NAMES = Map.of(
            "STARLING_BIND", "STARLING_LISTEN_BIND", "STARLING_PORT", "STARLING_LISTEN_PORT",
            "STARLING_AUTH", "STARLING_AUTH_MODE", "STARLING_GPU", "STARLING_GPU_ENABLED");

    static ServerConfig withEnvironment(ServerConfig c, Map<String, String> env) {
        Map<String, String> vars = new java.util.HashMap<>();
        SHORT_NAMES.forEach((name, full) -> {
            if (env.containsKey(name)) {
                vars.put(full, name);
            }
        });
        for (String name : env.keySet()) {
            if (name.startsWith("STARLING_") && !SHORT_NAMES.containsKey(name)) {
                vars.put(name, name);
            }
        }
        ServerConfig result = c;
        for (RecordComponent section : ServerConfig.class.getRecordComponents()) {
            String prefix = "STARLING_" + snake(section.getName()).toUpperCase(java.util.Locale.ROOT);
            if (!section.getType().isRecord()) {
                String set = vars.get(prefix);
                if (set != null) {
                    result = with(result, section, value(set, env.get(set), section.getGenericType()));
                }
                continue;
            }
            Object values = get(result, section);
            for (RecordComponent key : section.getType().getRecordComponents()) {
                String set = vars.get(prefix + "_" + snake(key.getName()).toUpperCase(java.util.Locale.ROOT));
                if (set != null) {
                    values = with(values, key, value(set, env.get(set), key.getGenericType()));
                }
            }
            result = with(result, section, values);
        }
        return result;
    }

    /** {@code text}, the value of variable {@code name}, as a value of {@code type}. */
    private static Object value(String name, String text, java.lang.reflect.Type type) {
        String v = text.trim();
        if (type == Integer.class || type == Long.class || type == Double.class) {
            try {
                return type == Integer.class ? Integer.valueOf(v) : type == Long.class ? (Object) Long.valueOf(v)
                        : Double.valueOf(v);
            } catch (NumberFormatException e) {
                throw new ConfigException(name + "='" + text + "' is not a number");
            }
        }
        if (type == Boolean.class) {
            return switch (v.toLowerCase(java.util.Locale.ROOT)) {
                case "true", "on", "yes", "1" -> true;
                case "false", "off", "no", "0" -> false;
                default -> throw new ConfigException(name + "='" + text + "' is not true or false (or on or off)");
            };
        }
        if (type == Path.class) {
            return Path.of(v);
        }
        if (type instanceof java.lang.reflect.ParameterizedType list) {
            java.util.List<String> items = java.util.Arrays.stream(v.split(",")).map(String::trim)
                    .filter(item -> !item.isEmpty()).toList();
            if (list.getActualTypeArguments()[0] == ServerConfig.User.class) {
                return items.stream().map(item -> {
                    // a bcrypt hash has no colon
                    String[] parts = item.split(":", -1);
                    if (parts.length < 2 || parts.length > 3 || parts[0].isEmpty()) {
                        throw new ConfigException(name + ": each user is name:bcrypt-hash or name:bcrypt-hash:role, "
                                + "comma-separated");
                    }
                    return new ServerConfig.User(parts[0], parts[1], parts.length == 3 ? parts[2] : null);
                }).toList();
            }
            if (list.getActualTypeArguments()[0] == Path.class) {
                return items.stream().map(Path::of).toList();
            }
            return items;
        }
        return v;
    }

    private static Object get(Object record, RecordComponent component) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code record} with {@code component} set to {@code value}, through its canonical constructor. */
    private static <R> R with(R record, RecordComponent component, Object value) {
        RecordComponent[] all = record.getClass().getRecordComponents();
        Object[] values = new Object[all.length];
        Class<?>[] types = new Class<?>[all.length];
        for (int i = 0; i < all.length; i++) {
            values[i] = all[i].getName().equals(component.getName()) ? value : get(record, all[i]);
            types[i] = all[i].getType();
        }
        try {
            @SuppressWarnings("unchecked")
            R changed = (R) record.getClass().getDeclaredConstructor(types).newInstance(values);
            return changed;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Checks what no single key can: ranges, pairs of keys, and that an open server asks for passwords. */
    public static ServerConfig validate(ServerConfig c) {
        if (c.listen().port() < 0 || c.listen().port() > 65535) {
            throw new ConfigException("listen.port must be 0..65535, not " + c.listen().port());
        }
        int httpPort = c.http().portBeside(c.listen().port());
        if (c.http().enabled() && (httpPort < 0 || httpPort > 65535)) {
            throw new ConfigException("http.port must be 0..65535, not " + httpPort
                    + (c.http().port() == null ? " (the port after listen.port; set http.port)" : ""));
        }
        if (c.http().enabled() && httpPort != 0 && httpPort == c.listen().port()) {
            throw new ConfigException("http.port and listen.port are both " + httpPort);
        }
        switch (c.auth().mode()) {
            case "none" -> {
                if (!isLoopback(c.listen().bind())) {
                    throw new ConfigException("auth.mode none serves anyone who can reach the port, so it only "
                            + "listens on a loopback address; listen.bind is " + c.listen().bind()
                            + ": set auth.mode to password (with auth.users) or bind 127.0.0.1");
                }
                // its status page shows every client's statements
                if (c.http().enabled() && !isLoopback(c.http().bind())) {
                    throw new ConfigException("auth.mode none serves the HTTP port's status page (every client's "
                            + "statements) only on a loopback address; http.bind is " + c.http().bind()
                            + ": set auth.mode to password (with auth.users) or bind 127.0.0.1");
                }
            }
            case "password" -> {
                if (c.auth().users().isEmpty()) {
                    throw new ConfigException("auth.mode password needs at least one entry in auth.users");
                }
                java.util.Set<String> names = new java.util.HashSet<>();
                for (ServerConfig.User u : c.auth().users()) {
                    if (u.name() == null || u.passwordHash() == null) {
                        throw new ConfigException("auth.users: each user needs a name and a bcrypt password_hash "
                                + "(bin/starling --hash-password makes one)");
                    }
                    if (!names.add(u.name())) {
                        throw new ConfigException("auth.users: user " + u.name() + " is listed twice");
                    }
                    if (!BCRYPT.matcher(u.passwordHash()).matches()) {
                        throw new ConfigException("auth.users: the password_hash of user " + u.name() + " is not a "
                                + "bcrypt hash ($2a$, $2b$ or $2y$, a cost of 04 to 31, then 53 characters; "
                                + "bin/starling --hash-password makes one)");
                    }
                    Role.of(u.role(), u.name());
                }
            }
            default -> throw new ConfigException("auth.mode must be none or password, not '" + c.auth().mode() + "'");
        }
        if (!(c.generate().maxScaleFactor() > 0)) {
            throw new ConfigException("generate.max_scale_factor must be positive, not " + c.generate().maxScaleFactor());
        }
        if (c.auth().tokenMinutes() <= 0) {
            throw new ConfigException("auth.token_minutes must be positive, not " + c.auth().tokenMinutes());
        }
        if ((c.tls().cert() == null) != (c.tls().key() == null)) {
            throw new ConfigException("tls.cert and tls.key go together: give both or neither");
        }
        if (c.tls().enabled()) {
            TlsFiles.read(c.tls());
        }
        if (c.memory().resultBufferBytes() < (1 << 20)) {
            throw new ConfigException("memory.result_buffer_bytes must be at least 1048576, not "
                    + c.memory().resultBufferBytes());
        }
        if (c.memory().queryStateBytes() < (1 << 20)) {
            throw new ConfigException("memory.query_state_bytes must be at least 1048576, not "
                    + c.memory().queryStateBytes());
        }
        if (c.query().maxRunning() < 1) {
            throw new ConfigException("query.max_running must be at least 1, not " + c.query().maxRunning());
        }
        if (c.gpu().pinnedKeepBytes() < 0 || c.gpu().mappedKeepBytes() < 0 || c.gpu().pinnedTableBytes() < 0) {
            throw new ConfigException("gpu.pinned_keep_bytes, gpu.mapped_keep_bytes and gpu.pinned_table_bytes cannot be negative");
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
            c.query().memoryLimitBytes();
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
            throw new ConfigException("unknown host " + host + " (listen.bind or http.bind)");
        }
    }
}

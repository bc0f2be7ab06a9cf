package dev.starling.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.gpu.cuda.HostMemoryPools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private Path yaml(String text) throws Exception {
        Path f = dir.resolve("starling.yaml");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void theShippedFileIsTheDefaults() {
        ServerConfig shipped = ConfigLoader.validate(ConfigLoader.load(Path.of("../conf/starling.yaml"), Map.of()));
        assertEquals(ServerConfig.defaults(), shipped);
    }

    @Test
    void keysAndEnvironmentAndDefaults() throws Exception {
        ServerConfig c = ConfigLoader.load(yaml("""
                listen:
                  port: 40000
                data_dir: /srv/starling
                auth:
                  mode: password
                  users:
                    - name: analyst
                      password_hash: "$2a$12$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0"
                """), Map.of("STARLING_BIND", "10.0.0.5"));
        assertEquals(40000, c.listen().port());
        assertEquals("10.0.0.5", c.listen().bind());
        assertEquals(Path.of("/srv/starling"), c.dataDir());
        assertTrue(c.auth().required());
        assertEquals(60, c.auth().tokenMinutes());
        assertEquals(0.1, c.demo().scaleFactor());
        assertFalse(c.tls().enabled());
        ConfigLoader.validate(c);
    }

    @Test
    void theGpuProfileComesFromTheFileOrTheEnvironmentAndAnUnknownOneIsNamed() throws Exception {
        Path f = yaml("""
                gpu:
                  profile: a100-80gb
                """);
        assertEquals("a100-80gb", ConfigLoader.validate(ConfigLoader.load(f, Map.of())).gpu().options().profile());
        assertEquals("h100-80gb", ConfigLoader.load(f, Map.of("STARLING_GPU_PROFILE", "h100-80gb")).gpu().profile());
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.validate(ConfigLoader.load(f, Map.of("STARLING_GPU_PROFILE", "h101"))));
        assertEquals("gpu.profile: unknown GPU profile 'h101': the profiles are h100-80gb, h200-141gb, a100-80gb",
                e.getMessage());
    }

    @Test
    void pinnedHostMemoryToKeepReachesTheEngineAndIsNotNegative() throws Exception {
        Path f = yaml("""
                gpu:
                  pinned_keep_bytes: 1073741824
                  mapped_keep_bytes: 0
                """);
        HostMemoryPools pools = ConfigLoader.validate(ConfigLoader.load(f, Map.of())).gpu().options().pools();
        assertEquals(new HostMemoryPools(1L << 30, 0, HostMemoryPools.DEFAULT.pinnedTableBytes()), pools);
        assertEquals(HostMemoryPools.DEFAULT, ConfigLoader.load(null, Map.of()).gpu().options().pools());
        Path negative = yaml("""
                gpu:
                  mapped_keep_bytes: -1
                """);
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.validate(ConfigLoader.load(negative, Map.of())));
        assertEquals("gpu.pinned_keep_bytes, gpu.mapped_keep_bytes and gpu.pinned_table_bytes cannot be negative", e.getMessage());
    }

    @Test
    void theQueryTimeoutComesFromTheFileOrTheEnvironmentAndIsChecked() throws Exception {
        Path f = yaml("""
                query:
                  timeout: 5min
                """);
        assertEquals(java.time.Duration.ofMinutes(5), ConfigLoader.validate(ConfigLoader.load(f, Map.of())).query()
                .timeoutDuration());
        assertEquals(java.time.Duration.ofMillis(1500), ConfigLoader.load(f, Map.of("STARLING_QUERY_TIMEOUT", "1.5"))
                .query().timeoutDuration());
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.validate(
                ConfigLoader.load(f, Map.of("STARLING_QUERY_TIMEOUT", "-1"))));
        assertEquals("query.timeout must be a number of seconds, or a number with ms, s, min or h, not '-1'",
                e.getMessage());
    }

    @Test
    void queriesRunningAtOnceAndTheirStateMemoryAreBoundedAndChecked() throws Exception {
        Path f = yaml("""
                query:
                  max_running: 3
                memory:
                  query_state_bytes: 2097152
                """);
        ServerConfig c = ConfigLoader.validate(ConfigLoader.load(f, Map.of()));
        assertEquals(3, c.query().maxRunning());
        assertEquals(2097152L, c.memory().queryStateBytes());
        assertEquals(5, ConfigLoader.load(f, Map.of("STARLING_QUERY_MAX_RUNNING", "5")).query().maxRunning());
        assertEquals(4 * Runtime.getRuntime().availableProcessors(), ServerConfig.defaults().query().maxRunning());
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.validate(
                ConfigLoader.load(f, Map.of("STARLING_QUERY_MAX_RUNNING", "0"))));
        assertEquals("query.max_running must be at least 1, not 0", e.getMessage());
        e = assertThrows(ConfigException.class, () -> ConfigLoader.validate(
                ConfigLoader.load(f, Map.of("STARLING_MEMORY_QUERY_STATE_BYTES", "1000"))));
        assertEquals("memory.query_state_bytes must be at least 1048576, not 1000", e.getMessage());
    }

    @Test
    void everyKeyHasAnEnvironmentVariable() {
        ServerConfig c = ConfigLoader.load(null, Map.of(
                "STARLING_LISTEN_PORT", "40000", "STARLING_HTTP_BIND", "0.0.0.0", "STARLING_DEMO_SCALE_FACTOR", "0.01",
                "STARLING_GPU_BUDGET_BYTES", "8589934592", "STARLING_GPU_RESIDENT_TABLES", "lineorder, lineitem",
                "STARLING_AUTH_USERS", "analyst:$2a$12$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0",
                "STARLING_MEMORY_RESULT_BUFFER_BYTES", "2097152", "STARLING_HTTP_ENABLED", "off",
                "STARLING_JAVA_OPTS", "-Xmx1g"));
        assertEquals(40000, c.listen().port());
        assertEquals(40001, c.http().portBeside(c.listen().port()));
        assertEquals("0.0.0.0", c.http().bind());
        assertFalse(c.http().enabled());
        assertEquals(0.01, c.demo().scaleFactor());
        assertEquals(8L << 30, c.gpu().budgetBytes());
        assertEquals(java.util.List.of("lineorder", "lineitem"), c.gpu().residentTables());
        assertEquals("analyst", c.auth().users().get(0).name());
        assertEquals(2097152L, c.memory().resultBufferBytes());
        // the full name wins over the short one
        assertEquals(5, ConfigLoader.load(null, Map.of("STARLING_PORT", "4", "STARLING_LISTEN_PORT", "5")).listen().port());
        assertFalse(ConfigLoader.load(null, Map.of("STARLING_GPU", "off")).gpu().enabled());
        ConfigException bad = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(null, Map.of("STARLING_DEMO_ENABLED", "maybe")));
        assertEquals("STARLING_DEMO_ENABLED='maybe' is not true or false (or on or off)", bad.getMessage());
    }

    @Test
    void rolesLoadDirectoriesAndTheLargestScaleFactorComeFromTheFileOrTheEnvironment() throws Exception {
        String hash = "$2a$12$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0";
        ServerConfig c = ConfigLoader.validate(ConfigLoader.load(yaml("""
                auth:
                  mode: password
                  users:
                    - name: ann
                      password_hash: "%s"
                      role: admin
                    - name: bob
                      password_hash: "%s"
                load:
                  allowed_dirs: [/srv/in, imports]
                generate:
                  max_scale_factor: 30
                """.formatted(hash, hash)), Map.of()));
        assertEquals(List.of("admin", "reader"), c.auth().users().stream().map(ServerConfig.User::role).toList());
        assertEquals(List.of(Path.of("/srv/in"), Path.of("imports")), c.load().directories(Path.of("data")));
        assertEquals(30.0, c.generate().maxScaleFactor());
        ServerConfig env = ConfigLoader.validate(ConfigLoader.load(null, Map.of("STARLING_AUTH", "password",
                "STARLING_AUTH_USERS", "ann:" + hash + ":admin,bob:" + hash, "STARLING_LOAD_ALLOWED_DIRS", "/a,/b",
                "STARLING_GENERATE_MAX_SCALE_FACTOR", "1")));
        assertEquals(List.of("admin", "reader"), env.auth().users().stream().map(ServerConfig.User::role).toList());
        assertEquals(List.of(Path.of("/a"), Path.of("/b")), env.load().directories(Path.of("data")));
        assertEquals(1.0, env.generate().maxScaleFactor());
        // by default, the data directory's import/
        assertEquals(List.of(Path.of("/srv/data/import")), ServerConfig.defaults().load().directories(Path.of("/srv/data")));
        ConfigException role = assertThrows(ConfigException.class, () -> ConfigLoader.validate(ConfigLoader.load(null,
                Map.of("STARLING_AUTH", "password", "STARLING_AUTH_USERS", "ann:" + hash + ":root"))));
        assertEquals("auth.users: the role of user ann must be admin or reader, not 'root'", role.getMessage());
        assertEquals(Role.ADMIN, Role.of(" Admin", "ann"), "a role in any case");
        ConfigException twice = assertThrows(ConfigException.class, () -> ConfigLoader.validate(ConfigLoader.load(null,
                Map.of("STARLING_AUTH", "password", "STARLING_AUTH_USERS", "ann:" + hash + ",ann:" + hash + ":admin"))));
        assertEquals("auth.users: user ann is listed twice", twice.getMessage());
        ConfigException scale = assertThrows(ConfigException.class, () -> ConfigLoader.validate(ConfigLoader.load(null,
                Map.of("STARLING_GENERATE_MAX_SCALE_FACTOR", "0"))));
        assertEquals("generate.max_scale_factor must be positive, not 0.0", scale.getMessage());
    }

    @Test
    void theStatusPageOfAServerWithoutPasswordsStaysOnLoopback() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.validate(ConfigLoader.load(null, Map.of("STARLING_HTTP_BIND", "0.0.0.0"))));
        assertTrue(e.getMessage().contains("http.bind is 0.0.0.0"), e.getMessage());
        ConfigLoader.validate(ConfigLoader.load(null, Map.of("STARLING_HTTP_BIND", "0.0.0.0", "STARLING_HTTP_ENABLED", "no")));
    }

    @Test
    void theHttpPortIsBesideFlightsUnlessSet() {
        assertEquals(32011, ServerConfig.defaults().http().portBeside(32010));
        assertEquals(0, ServerConfig.defaults().http().portBeside(0));
        assertEquals(9000, ConfigLoader.load(null, Map.of("STARLING_HTTP_PORT", "9000")).http().portBeside(32010));
        ConfigException past = assertThrows(ConfigException.class,
                () -> ConfigLoader.validate(ConfigLoader.load(null, Map.of("STARLING_PORT", "65535"))));
        assertTrue(past.getMessage().contains("http.port must be 0..65535, not 65536"), past.getMessage());
    }

    @Test
    void anUnknownKeyIsNamedWithItsPath() throws Exception {
        Path f = yaml("""
                listen:
                  port: 1
                auth:
                  mod: none
                """);
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(f, Map.of()));
        assertTrue(e.getMessage().contains("unknown key 'auth.mod'; known keys here: mode, token_minutes, users"), e.getMessage());
        assertTrue(e.getMessage().contains("mode"), e.getMessage());
    }

    @Test
    void aValueOfTheWrongTypeNamesItsKey() throws Exception {
        Path f = yaml("listen:\n  port: lots\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(f, Map.of()));
        assertTrue(e.getMessage().contains("key 'listen.port' (line 2)"), e.getMessage());
        ConfigException env = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(null, Map.of("STARLING_PORT", "x")));
        assertEquals("STARLING_PORT='x' is not a number", env.getMessage());
    }

    @Test
    void noAuthenticationOnlyOnLoopback() {
        ServerConfig open = ConfigLoader.load(null, Map.of("STARLING_BIND", "0.0.0.0"));
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.validate(open));
        assertTrue(e.getMessage().startsWith("auth.mode none serves anyone"), e.getMessage());
        ConfigException noUsers = assertThrows(ConfigException.class,
                () -> ConfigLoader.validate(ConfigLoader.load(null, Map.of("STARLING_AUTH", "password"))));
        assertEquals("auth.mode password needs at least one entry in auth.users", noUsers.getMessage());
    }

    @Test
    void tokenLifetimesArePositiveAndPasswordHashesWellFormed() throws Exception {
        for (String minutes : new String[] {"0", "-5"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.validate(ConfigLoader.load(
                    yaml("auth:\n  token_minutes: " + minutes + "\n"), Map.of())));
            assertEquals("auth.token_minutes must be positive, not " + minutes, e.getMessage());
        }
        String good = "$2a$10$" + "a".repeat(53);
        ConfigLoader.validate(ConfigLoader.load(yaml("auth:\n  mode: password\n  users:\n    - name: ann\n"
                + "      password_hash: '" + good + "'\n"), Map.of()));
        for (String bad : new String[] {"$2a$10$short", "$2a$99$" + "a".repeat(53), "$3a$10$" + "a".repeat(53)}) {
            ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.validate(ConfigLoader.load(
                    yaml("auth:\n  mode: password\n  users:\n    - name: ann\n      password_hash: '" + bad + "'\n"),
                    Map.of())));
            assertTrue(e.getMessage().startsWith("auth.users: the password_hash of user ann is not a bcrypt hash"),
                    e.getMessage());
        }
    }

    /**
     * TLS files are checked at start: PKCS#8 and PKCS#1 keys are read; a key that is not the
     * certificate's, an encrypted or missing key, or a certificate file without a certificate stop
     * the server with an error naming the key and the file.
     */
    @Test
    void tlsFilesAreCheckedAtStart() throws Exception {
        Path tls = Path.of("src/test/resources/tls").toAbsolutePath();
        Path cert = tls.resolve("server.crt");
        for (String key : List.of("server.key", "server-pkcs1.key")) {
            ServerConfig c = ConfigLoader.validate(ConfigLoader.load(null,
                    Map.of("STARLING_TLS_CERT", cert.toString(), "STARLING_TLS_KEY", tls.resolve(key).toString())));
            assertTrue(new String(TlsFiles.read(c.tls()).pkcs8KeyPem()).startsWith("-----BEGIN PRIVATE KEY-----\n"), key);
        }
        assertTlsRefused(cert, tls.resolve("other.key"), "tls.key " + tls.resolve("other.key")
                + " is not the private key of the certificate in tls.cert " + cert + ": every TLS handshake would fail");
        assertTlsRefused(cert, tls.resolve("encrypted.key"), "tls.key " + tls.resolve("encrypted.key") + " is encrypted");
        assertTlsRefused(cert, cert, "tls.key " + cert + " holds no PEM private key");
        assertTlsRefused(tls.resolve("server.key"), tls.resolve("server.key"), "tls.cert " + tls.resolve("server.key")
                + " holds no PEM certificate");
        assertTlsRefused(cert, tls.resolve("missing.key"), "tls.key " + tls.resolve("missing.key") + " cannot be read");
    }

    private static void assertTlsRefused(Path cert, Path key, String message) {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.validate(ConfigLoader.load(null,
                Map.of("STARLING_TLS_CERT", cert.toString(), "STARLING_TLS_KEY", key.toString()))));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    @Test
    void tlsNeedsBothFiles() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.validate(ConfigLoader.load(null, Map.of("STARLING_TLS_CERT", "x.crt"))));
        assertEquals("tls.cert and tls.key go together: give both or neither", e.getMessage());
    }
}

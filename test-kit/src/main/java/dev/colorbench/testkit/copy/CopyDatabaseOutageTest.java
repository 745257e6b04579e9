package dev.colorbench.testkit.copy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;

import dev.colorbench.testkit.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A database copy's PostgreSQL going away, coming back, and stalling, on an embedded PostgreSQL of the test's own (never
 * the one in {@code DATABASE_URL}): a 503 problem within a second while it is away or stalled, and the whole palette
 * again within 5 s of its return. The copy migrates while it starts, so the server is there before. The stall is a
 * lock: a transaction of the test's own holds {@code ACCESS EXCLUSIVE} on {@code colorbench.colors}, and the copy's
 * statement waits for it until the server cancels it at the statement timeout (500 ms). Each database copy has a
 * one-line subclass.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
@TestMethodOrder(OrderAnnotation.class)
public abstract class CopyDatabaseOutageTest {

    private static final Duration RECOVERY = Duration.ofSeconds(5);

    private static final EmbeddedPostgres POSTGRES = EmbeddedPostgres.notStarted("pw-" + UUID.randomUUID());

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void databaseUrl(DynamicPropertyRegistry registry) {
        POSTGRES.startServer();
        registry.add("spring.datasource.url", POSTGRES::jdbcUrl);
    }

    @AfterAll
    static void closePostgres() {
        POSTGRES.close();
    }

    @Test
    @Order(10)
    void servesThePalette() {
        assertThat(CopyHttp.get(port, "/colors").body()).isEqualTo(CopyHttp.palette());
    }

    @Test
    @Order(20)
    void aStoppedDatabaseIsA503WithinASecond() {
        POSTGRES.stop();

        CopyHttp.assertFast503(port, "/colors");
        CopyHttp.assertFast503(port, "/colors");
    }

    @Test
    @Order(30)
    void servesThePaletteWithin5SecondsOfTheDatabaseReturning() {
        POSTGRES.startServer();

        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(50)).untilAsserted(
                () -> assertThat(CopyHttp.get(port, "/colors").body()).isEqualTo(CopyHttp.palette()));
    }

    @Test
    @Order(40)
    void aStalledDatabaseIsA503AtItsStatementTimeoutThenServesAgain() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRES.superuserJdbcUrl())) {
            connection.setAutoCommit(false);
            try (Statement lock = connection.createStatement()) {
                lock.execute("LOCK TABLE colorbench.colors IN ACCESS EXCLUSIVE MODE");
            }
            CopyHttp.assertFast503(port, "/colors");
            connection.rollback();
        }
        await().atMost(RECOVERY).pollInterval(Duration.ofMillis(50)).untilAsserted(
                () -> assertThat(CopyHttp.get(port, "/colors").body()).isEqualTo(CopyHttp.palette()));
    }
}

package dev.colorbench.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A replica of an {@link EmbeddedRedis}, reached through a {@link DelayProxy}: it copies what its master held,
 * lags by half the path's round trip, never less, and holds every earlier write once {@code awaitInSync}
 * returns. Every server here is the test's own.
 */
@TestInstance(Lifecycle.PER_CLASS)
class EmbeddedRedisReplicaTest {

    private EmbeddedRedis master;

    private DelayProxy path;

    private EmbeddedRedis replica;

    private Node onMaster;

    private Node onReplica;

    @BeforeAll
    void start() {
        master = EmbeddedRedis.start();
        try (Node node = new Node(master.url())) {
            node.redis.sync().set("colorbench-test:before", "held before the replica started");
        }
        path = DelayProxy.start("127.0.0.1", master.port(), Duration.ZERO);
        replica = EmbeddedRedis.startReplicaOf(master, path);
        onMaster = new Node(master.url());
        onReplica = new Node(replica.url());
    }

    @AfterEach
    void noDelay() {
        path.setAddedRoundTrip(Duration.ZERO);
    }

    @AfterAll
    void stop() {
        onReplica.close();
        onMaster.close();
        replica.close();
        path.close();
        master.close();
    }

    @Test
    void startsWithWhatTheMasterHeldAndRefusesWrites() {
        assertThat(onReplica.redis.sync().get("colorbench-test:before")).isEqualTo("held before the replica started");
        assertThat(onReplica.redis.sync().info("replication")).contains("role:slave", "master_port:" + path.port(), "master_link_status:up");
        assertThat(onMaster.redis.sync().info("replication")).contains("connected_slaves:1");
        assertThatThrownBy(() -> onReplica.redis.sync().set("colorbench-test:refused", "x")).hasMessageContaining("READONLY");
    }

    /** The snapshot went over the socket both ways: neither server wrote an RDB file where it runs. */
    @Test
    void keepsNothingOnDisk() throws IOException {
        for (Node node : List.of(onMaster, onReplica)) {
            Path dir = Path.of(node.redis.sync().configGet("dir").get("dir"));
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(file -> file.getFileName().toString())).noneMatch(name -> name.endsWith(".rdb"));
            }
        }
    }

    /**
     * Every read of the replica answered before half the round trip had passed since the write was sent shows
     * the value from before; the new value comes after it, however loaded the machine (only later, never sooner).
     * The clock starts before the write goes out: the master cannot pass it on sooner, while a stall of this
     * thread after the master's reply would start a later clock and see the replica "early".
     */
    @Test
    void aWriteReachesTheReplicaNoSoonerThanHalfThePathsRoundTrip() {
        Duration lag = Duration.ofMillis(150);
        String key = "colorbench-test:lag";
        onMaster.redis.sync().set(key, "old");
        replica.awaitInSync(Duration.ofSeconds(10));
        path.setAddedRoundTrip(lag.multipliedBy(2));

        long sent = System.nanoTime();
        onMaster.redis.sync().set(key, "new");
        long due = sent + lag.toNanos();
        long seen = 0;
        int earlyReads = 0;
        while (seen == 0 && System.nanoTime() - sent < Duration.ofSeconds(10).toNanos()) {
            String value = onReplica.redis.sync().get(key);
            long answered = System.nanoTime();
            if (answered < due) {
                assertThat(value).as("a read answered %d µs after the write was sent", (answered - sent) / 1_000).isEqualTo("old");
                earlyReads++;
            }
            if ("new".equals(value)) {
                seen = answered;
            }
            sleep(2);
        }

        System.out.printf("A write reached the replica %.1f ms after it was sent (lag asked %d ms, %d reads before it saw the old value)%n",
                (seen - sent) / 1e6, lag.toMillis(), earlyReads);
        assertThat(seen).as("the replica saw the write").isNotZero();
        assertThat(seen).isGreaterThanOrEqualTo(due);
    }

    @Test
    void awaitInSyncReturnsOnceTheReplicaHoldsEveryEarlierWrite() {
        Duration lag = Duration.ofMillis(100);
        path.setAddedRoundTrip(lag.multipliedBy(2));
        List<String> keys = new ArrayList<>();
        long sent = 0;
        for (int i = 0; i < 50; i++) {
            keys.add("colorbench-test:sync:" + i);
            sent = System.nanoTime();
            onMaster.redis.sync().set(keys.get(i), "v" + i);
        }

        replica.awaitInSync(Duration.ofSeconds(10));

        long took = System.nanoTime() - sent;
        System.out.printf("awaitInSync took %.1f ms behind a lag of %d ms%n", took / 1e6, lag.toMillis());
        assertThat(took).as("from when the last write was sent").isGreaterThanOrEqualTo(lag.toNanos());
        List<KeyValue<String, String>> values = onReplica.redis.sync().mget(keys.toArray(String[]::new));
        for (int i = 0; i < keys.size(); i++) {
            assertThat(values.get(i).getValueOrElse(null)).isEqualTo("v" + i);
        }
    }

    @Test
    void aReplicaOfAPasswordProtectedMasterAsksForTheSamePassword() {
        EmbeddedRedis guarded = EmbeddedRedis.notStarted("s3cret-" + System.nanoTime());
        guarded.startServer();
        try (DelayProxy toGuarded = DelayProxy.start("127.0.0.1", guarded.port(), Duration.ZERO)) {
            try (Node node = new Node(guarded.url())) {
                node.redis.sync().set("colorbench-test:guarded", "copied");
            }
            EmbeddedRedis guardedReplica = EmbeddedRedis.startReplicaOf(guarded, toGuarded);
            try (Node node = new Node(guardedReplica.url())) {
                assertThat(guardedReplica.url()).contains(":s3cret-");
                assertThat(node.redis.sync().get("colorbench-test:guarded")).isEqualTo("copied");
                assertThat(replyWithoutPassword(guardedReplica.port(), "colorbench-test:guarded")).startsWith("-NOAUTH");
            }
            finally {
                guardedReplica.close();
            }
        }
        finally {
            guarded.close();
        }
    }

    @Test
    void refusesAPathToAnotherServer() {
        try (DelayProxy elsewhere = DelayProxy.start("127.0.0.1", replica.port(), Duration.ZERO)) {
            assertThatIllegalArgumentException().isThrownBy(() -> EmbeddedRedis.startReplicaOf(master, elsewhere));
        }
    }

    @Test
    void aMasterIsNoReplica() {
        assertThatThrownBy(() -> master.awaitInSync(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /**
     * The first line the server answers to a GET sent on a bare socket, without a password. A raw RESP2 request,
     * not Lettuce: Lettuce first asks HELLO, and how a client reports a refused HELLO is the client's business,
     * not the server's.
     */
    private static String replyWithoutPassword(int port, String key) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            String request = "*2\r\n$3\r\nGET\r\n$" + key.length() + "\r\n" + key + "\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** A plain connection to one server. */
    private static final class Node implements AutoCloseable {

        final RedisClient client;

        final StatefulRedisConnection<String, String> redis;

        Node(String url) {
            client = RedisClient.create(RedisURI.create(url));
            try {
                redis = client.connect();
            }
            catch (RuntimeException ex) {
                client.shutdown();
                throw ex;
            }
        }

        @Override
        public void close() {
            redis.close();
            client.shutdown();
        }
    }
}

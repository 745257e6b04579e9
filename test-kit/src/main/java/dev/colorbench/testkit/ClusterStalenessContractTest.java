package dev.colorbench.testkit;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A near cache on the shared Redis Cluster of three masters: another client's write to a color on
 * <em>each</em> master reaches the module through that master's tracking connection, within the bounds of
 * the single-server {@link StalenessContractTest} (none later than {@code SETTLED}; the percentiles are printed,
 * not asserted); warm requests cost no command and no round trip on any master; and while a master
 * is stopped there is no copy, the colors of the other masters are read from them and the stopped one's
 * are 503s, until it is back and every master tracks again. The writer is a plain connection to each
 * master, as another application would write to the key's node.
 *
 * <p>The kit does not know the near-cache library (whose own tests use the kit), so each module's
 * subclass names its keys and hands over its copy and its tracking: {@link #localCopy()},
 * {@link #trackingActive()}, {@link #trackingSessions()} and {@link #trackedServers()}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
@TestInstance(Lifecycle.PER_CLASS)
public abstract class ClusterStalenessContractTest {

    /** Measured writes per master, after as many unmeasured ones per master as {@link #WARM_UP_WRITES}. */
    private static final int WRITES = 60;

    private static final int WARM_UP_WRITES = 20;

    private static final int WARM_REQUESTS = 20;

    /** How soon the module must answer from its copy again: every master tracking. */
    private static final Duration WARM = Duration.ofSeconds(15);

    /** The most a request may take to fail while a master it needs is away. */
    private static final Duration FAST_FAILURE = Duration.ofSeconds(1);

    @LocalServerPort
    private int port;

    private EmbeddedRedisCluster cluster;

    private ClusterCommandStats stats;

    private final List<RedisClient> clients = new ArrayList<>();

    /** A plain connection to each master, in the cluster's order. */
    private final List<StatefulRedisConnection<String, String>> masters = new ArrayList<>();

    /** The palette's colors whose keys each master holds. */
    private final List<List<String>> namesOn = new ArrayList<>();

    private final Function<String, String> keyOf;

    /** @param keyOf the key the module reads a color's JSON from, by name */
    protected ClusterStalenessContractTest(Function<String, String> keyOf) {
        this.keyOf = keyOf;
    }

    /**
     * The module's local copy as it is now, the one near cache the colors are held in: whether it answers,
     * and whether it holds a key. Taken once per check, so that a copy made again in between is noticed.
     */
    protected abstract LocalCopy localCopy();

    /** Whether the module answers from its copy: every master tracking (the tracking's {@code isActive()}). */
    protected abstract boolean trackingActive();

    /** How many copies the tracking has started so far: a new one each time every master tracks again. */
    protected abstract long trackingSessions();

    /** Each tracked server, by name ({@code "master host:port"}), and whether it tracks now. */
    protected abstract Map<String, Boolean> trackedServers();

    /**
     * One near cache of the module, seen through what this test asks of it.
     *
     * @param active whether the copy answers
     * @param holding whether the copy holds a key ({@code getIfPresent(key) != null})
     */
    public record LocalCopy(BooleanSupplier active, Predicate<String> holding) {

        boolean isActive() {
            return active.getAsBoolean();
        }

        boolean holds(String key) {
            return holding.test(key);
        }
    }

    @DynamicPropertySource
    static void clusterNodes(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", TestRedisCluster::nodes);
    }

    @BeforeAll
    void connectToEachMaster() {
        cluster = TestRedisCluster.get();
        stats = cluster.stats();
        for (int master = 0; master < EmbeddedRedisCluster.MASTERS; master++) {
            RedisClient client = RedisClient.create(cluster.masterUrl(master));
            clients.add(client);
            masters.add(client.connect());
            int on = master;
            namesOn.add(Palette.names().stream().filter(name -> cluster.masterOf(keyOf.apply(name)) == on).toList());
            assertThat(namesOn.get(master)).as("colors on master %d", master).isNotEmpty();
        }
    }

    @AfterAll
    void disconnect() {
        masters.forEach(StatefulRedisConnection::close);
        clients.forEach(RedisClient::shutdown);
        stats.close();
    }

    /** Whatever a case changed, every master holds its colors as the palette has them again, and the module serves them. */
    @AfterEach
    void restoreThePalette() {
        for (int master = 0; master < masters.size(); master++) {
            for (String name : namesOn.get(master)) {
                masters.get(master).sync().set(keyOf.apply(name), ColorJson.of(Palette.find(name).orElseThrow()));
            }
        }
        awaitAnswer("/colors", ColorJson.palette(), WARM);
    }

    @Test
    void eachMasterTracksThePrefixForOneConnectionAndRemembersNoKeys() {
        awaitWarm();
        assertThat(trackedServers()).hasSize(EmbeddedRedisCluster.MASTERS).doesNotContainValue(false);
        for (int master = 0; master < EmbeddedRedisCluster.MASTERS; master++) {
            assertThat(stats.master(master).info("clients")).as("master %d", master).contains("tracking_clients:1");
            assertThat(stats.master(master).info("stats")).as("master %d", master).contains("tracking_total_keys:0", "tracking_total_prefixes:1");
        }
    }

    @Test
    void warmRequestsCostNothingOnAnyMaster() {
        awaitWarm();
        ClusterCommandStats.Usage usage = stats.usage(() -> {
            for (int i = 0; i < WARM_REQUESTS; i++) {
                String name = Palette.names().get(i * 7 % Palette.names().size());
                String path = switch (i % 4) {
                    case 0, 1 -> "/colors";
                    case 2 -> "/colors/" + name;
                    default -> "/colors?names=" + name + "," + Palette.names().get(i);
                };
                assertThat(get(path).statusCode()).as(path).isEqualTo(200);
            }
        });

        System.out.printf("%s: %d warm requests cost %s in %d round trips; per master %s%n", getClass().getSimpleName(), WARM_REQUESTS,
                usage.commands(), usage.roundTrips(), usage.perMaster());
        assertThat(usage.commands()).as("commands of %d warm requests, per master %s", WARM_REQUESTS, usage.perMaster()).isEmpty();
        assertThat(usage.roundTrips()).as("round trips of %d warm requests", WARM_REQUESTS).isZero();
    }

    /**
     * A miss reads just the missing keys, on the masters that hold them: after one color changed, 1 MGET
     * on its master; after every color changed, the whole palette: one MGET per color (the 148 keys are in
     * 148 slots), on all three masters, sent as the subclass says.
     */
    @Test
    void aMissReadsJustTheChangedColorsFromTheirMasters() {
        awaitWarm();
        String name = namesOn.get(2).get(0);
        String repainted = ColorJson.of(StalenessContractTest.repainted(name, 7));
        ClusterCommandStats.Usage one = missAfter(() -> masters.get(2).sync().set(keyOf.apply(name), repainted), cache -> !cache.holds(keyOf.apply(name)));
        System.out.printf("%s: GET /colors after one color changed cost %s in %d round trips; per master %s%n", getClass().getSimpleName(),
                one.commands(), one.roundTrips(), one.perMaster());
        assertThat(one.commands()).isEqualTo(Map.of("mget", 1L));
        assertThat(one.masters().get(2).commands()).as("on the color's master").isEqualTo(Map.of("mget", 1L));

        ClusterCommandStats.Usage all = missAfter(() -> {
            for (int master = 0; master < masters.size(); master++) {
                for (String each : namesOn.get(master)) {
                    masters.get(master).sync().set(keyOf.apply(each), ColorJson.of(Palette.find(each).orElseThrow()));
                }
            }
        }, cache -> Palette.names().stream().allMatch(each -> !cache.holds(keyOf.apply(each))));
        System.out.printf("%s: GET /colors after every color changed cost %s in %d round trips; per master %s%n", getClass().getSimpleName(),
                all.commands(), all.roundTrips(), all.perMaster());
        assertThat(all.commands()).isEqualTo(Map.of("mget", (long) Palette.names().size()));
        assertThat(all.mastersUsed()).isEqualTo(EmbeddedRedisCluster.MASTERS);
    }

    /** What one {@code GET /colors} costs once {@code write} is done and the copy has received its invalidations. */
    private ClusterCommandStats.Usage missAfter(Runnable write, Predicate<LocalCopy> invalidated) {
        long sessions = trackingSessions();
        write.run();
        long deadline = System.nanoTime() + StalenessContractTest.SETTLED.toNanos();
        LocalCopy cache = localCopy();
        assertThat(cache.isActive()).as("the copy still answers").isTrue();
        while (!invalidated.test(cache) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(invalidated.test(cache)).as("the writes invalidated within %s", StalenessContractTest.SETTLED).isTrue();
        assertThat(cache.isActive() && trackingSessions() == sessions).as("the same copy still answers").isTrue();
        return stats.usage(() -> assertThat(get("/colors").statusCode()).isEqualTo(200));
    }

    @Test
    void anotherWritersChangeOnEachMasterIsServedWithinTheBound() {
        awaitWarm();
        Map<String, String> current = new LinkedHashMap<>();
        Palette.all().forEach(color -> current.put(color.name(), ColorJson.of(color)));
        List<List<Long>> staleness = new ArrayList<>();
        for (int master = 0; master < EmbeddedRedisCluster.MASTERS; master++) {
            staleness.add(new ArrayList<>());
        }
        int staleAnswers = 0;
        for (int i = -WARM_UP_WRITES; i < WRITES; i++) {
            for (int master = 0; master < EmbeddedRedisCluster.MASTERS; master++) {
                List<String> names = namesOn.get(master);
                String name = names.get(Math.floorMod(i, names.size()));
                String before = current.get(name);
                String after = ColorJson.of(StalenessContractTest.repainted(name, i + WARM_UP_WRITES));
                String path = (Math.floorMod(i, 2) == 0) ? "/colors/" + name : "/colors";

                StatefulRedisConnection<String, String> writer = masters.get(master);
                StalenessContractTest.Served served = StalenessContractTest.awaitServed(() -> writer.sync().set(keyOf.apply(name), after),
                        path, before, after, this::get, name + " on master " + master);
                if (i >= 0) {
                    staleness.get(master).add(served.nanos());
                    staleAnswers += served.staleAnswers();
                }
                current.put(name, after);
            }
        }

        List<Long> all = new ArrayList<>();
        for (int master = 0; master < EmbeddedRedisCluster.MASTERS; master++) {
            List<Long> measured = staleness.get(master);
            measured.sort(null);
            all.addAll(measured);
            System.out.printf("Staleness on master %d over %d writes: p50 %s, max %s%n", master, measured.size(),
                    millis(percentile(measured, 50)), millis(measured.get(measured.size() - 1)));
        }
        all.sort(null);
        long p99 = percentile(all, 99);
        System.out.printf("Staleness on the cluster over %d writes (SET reply on a master to the first answer with the new value):"
                + " p50 %s, p99 %s, max %s (bound: each <= %s); %d answers with the value from before%n", all.size(),
                millis(percentile(all, 50)), millis(p99), millis(all.get(all.size() - 1)), millis(StalenessContractTest.SETTLED.toNanos()),
                staleAnswers);
        assertThat(Duration.ofNanos(all.get(all.size() - 1))).as("the stalest of %d writes on 3 masters (p99 %s)", all.size(), millis(p99))
                .isLessThanOrEqualTo(StalenessContractTest.SETTLED);
    }

    @Test
    void whileAMasterIsStoppedThereIsNoCopyItsColorsAre503sAndTheOthersAreReadFromTheirMasters() {
        awaitWarm();
        long sessions = trackingSessions();
        int stopped = 1;
        String onStopped = namesOn.get(stopped).get(0);
        String onAnother = namesOn.get(0).get(0);
        try {
            cluster.stopMaster(stopped);
            long deadline = System.nanoTime() + FAST_FAILURE.toNanos();
            while (trackingActive() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(trackingActive()).as("the copy within %s of master %d stopping", FAST_FAILURE, stopped).isFalse();
            assertThat(trackedServers()).containsEntry("master " + cluster.nodes().get(stopped), false);

            // counted on that master alone: the stopped one has no counters to read
            HttpResponse<String>[] served = new HttpResponse[1];
            Map<String, Long> cost = stats.master(0).during(() -> served[0] = get("/colors/" + onAnother));
            assertThat(served[0].statusCode()).isEqualTo(200);
            assertThat(served[0].body()).isEqualTo(ColorJson.of(Palette.find(onAnother).orElseThrow()));
            assertThat(cost).as("a color on a running master, read from it").containsEntry("mget", 1L);

            for (String path : new String[] { "/colors/" + onStopped, "/colors", "/colors?names=" + onAnother + "," + onStopped }) {
                long started = System.nanoTime();
                HttpResponse<String> response = get(path);
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(response.statusCode()).as("%s with master %d stopped: %s", path, stopped, response.body()).isEqualTo(503);
                assertThat(took).as("%s with master %d stopped", path, stopped).isLessThanOrEqualTo(FAST_FAILURE);
            }
            assertThat(trackingActive()).as("no copy while a master is away").isFalse();
        }
        finally {
            cluster.startMaster(stopped);
            // the test's own connections to the restarted master would reconnect on Lettuce's default back-off (up to 30 s): new ones
            stats.close();
            stats = cluster.stats();
            masters.get(stopped).close();
            masters.set(stopped, clients.get(stopped).connect());
        }

        awaitAnswer("/colors", ColorJson.palette(), WARM);
        awaitWarm();
        assertThat(trackingSessions()).as("a new copy once every master tracks again").isGreaterThan(sessions);
    }

    /** Until a {@code GET /colors} costs no master anything, within {@link #WARM}: every master tracks and the copy is full. */
    private void awaitWarm() {
        long deadline = System.nanoTime() + WARM.toNanos();
        while (true) {
            HttpResponse<String>[] response = new HttpResponse[1];
            ClusterCommandStats.Usage usage = stats.usage(() -> response[0] = get("/colors"));
            if (response[0].statusCode() == 200 && usage.commands().isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("GET /colors still costs %s (answered %d) after %s; tracking %s", usage.commands(), response[0].statusCode(), WARM,
                        trackedServers());
            }
            sleep(20);
        }
    }

    /** Until {@code path} answers 200 with {@code expected}, within {@code within}. */
    private void awaitAnswer(String path, String expected, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        HttpResponse<String> response = get(path);
        while (!(response.statusCode() == 200 && response.body().equals(expected)) && System.nanoTime() < deadline) {
            sleep(20);
            response = get(path);
        }
        assertThat(response.statusCode()).as("%s within %s: %s", path, within, response.body()).isEqualTo(200);
        assertThat(response.body()).as("%s within %s", path, within).isEqualTo(expected);
    }

    private HttpResponse<String> get(String path) {
        return LocalHttp.get(port, path);
    }

    /** The one definition's percentile ({@link Statistics#percentile}) of nanoseconds. */
    private static long percentile(List<Long> nanos, int percent) {
        return (long) Statistics.percentile(nanos.stream().mapToDouble(Long::doubleValue).toArray(), percent);
    }

    private static String millis(long nanos) {
        return "%.2f ms".formatted(nanos / 1e6);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}

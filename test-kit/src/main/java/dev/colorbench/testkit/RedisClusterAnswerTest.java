package dev.colorbench.testkit;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The light check on a Redis Cluster, for the modules the full {@link RedisClusterContractTest} leaves out
 * to keep {@code ./mvnw verify} within its time: the module on the shared {@link TestRedisCluster} serves
 * the whole palette, a subset and one color right, and one {@code GET /colors} costs exactly the commands
 * named, summed over the masters, spread over the masters named. No 4xx table, no master stopped: those
 * paths are the same code on every module, and the full contract runs them for a representative set.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext
public abstract class RedisClusterAnswerTest {

    private final Map<String, Long> commandsPerFullRead;

    private final int mastersPerFullRead;

    @LocalServerPort
    private int port;

    /** As in {@link RedisClusterContractTest#RedisClusterContractTest(Map, int)}. */
    protected RedisClusterAnswerTest(Map<String, Long> commandsPerFullRead, int mastersPerFullRead) {
        this.commandsPerFullRead = commandsPerFullRead;
        this.mastersPerFullRead = mastersPerFullRead;
    }

    @DynamicPropertySource
    static void clusterNodes(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", TestRedisCluster::nodes);
    }

    @Test
    void servesThePaletteOnTheClusterAtTheDocumentedCost() {
        assertThat(LocalHttp.get(port, "/colors?names=tomato,AliceBlue,teal,tomato").body())
                .isEqualTo(ColorJson.of(Palette.colors(List.of("tomato", "aliceblue", "teal", "tomato"))));
        assertThat(LocalHttp.get(port, "/colors/RebeccaPurple").body()).isEqualTo(ColorJson.of(Palette.find("rebeccapurple").orElseThrow()));

        try (ClusterCommandStats stats = TestRedisCluster.get().stats()) {
            ClusterCommandStats.Usage usage = ClusterReads.measure(getClass().getSimpleName(), stats, () -> {
                HttpResponse<String> response = LocalHttp.get(port, "/colors");
                assertThat(response.body()).isEqualTo(ColorJson.palette());
                return response.statusCode();
            });

            assertThat(usage.commands()).isEqualTo(commandsPerFullRead);
            assertThat(usage.mastersUsed()).as("masters used by one GET /colors: %s", usage.perMaster()).isEqualTo(mastersPerFullRead);
        }
    }
}

package dev.colorbench.nearcache;

import java.util.ArrayList;
import java.util.List;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StalenessContractTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class NearCacheStalenessTest extends StalenessContractTest {

    @Autowired
    private Tracking tracking;

    NearCacheStalenessTest() {
        super(ColorKeys::jsonKey);
    }

    /**
     * Broadcast mode, seen from the server: one client tracks (the module's dedicated connection), under
     * one prefix, and Redis keeps no table of the keys it read, however many it did.
     */
    @Test
    void redisTracksOnePrefixForOneConnectionAndRemembersNoKeys() {
        awaitWarm();
        assertThat(get("/colors").body()).isEqualTo(ColorJson.palette());

        assertThat(redis().info("clients")).contains("tracking_clients:1");
        assertThat(redis().info("stats")).contains("tracking_total_keys:0", "tracking_total_prefixes:1");
    }

    /**
     * The part of the staleness that is the invalidation's own: from another writer's {@code SET} reply
     * to the module having handled the push message (without the HTTP request the contract's figure includes);
     * each within the contract's bound, the percentiles printed.
     */
    @Test
    void anInvalidationIsHandledWithinTheBound() {
        awaitWarm();
        List<Long> delivered = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Palette.find(Palette.names().get(i % Palette.names().size())).ifPresent(color -> {
                long received = tracking.invalidations();
                redis().set(ColorKeys.jsonKey(color.name()), ColorJson.of(color));
                long written = System.nanoTime();
                while (tracking.invalidations() == received) {
                    if (System.nanoTime() - written > SETTLED.toNanos()) {
                        fail("no invalidation of %s within %s", color.name(), SETTLED);
                    }
                    Thread.onSpinWait();
                }
                delivered.add(System.nanoTime() - written);
            });
        }
        delivered.sort(null);
        long p50 = delivered.get(99);
        long p99 = delivered.get(197);
        long max = delivered.get(delivered.size() - 1);
        System.out.printf("Invalidation handled after the SET reply, over %d writes: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                delivered.size(), p50 / 1e6, p99 / 1e6, max / 1e6);
        assertThat(max).as("the slowest invalidation's delivery (p50 %.2f ms, p99 %.2f ms)", p50 / 1e6, p99 / 1e6)
                .isLessThanOrEqualTo(SETTLED.toNanos());
    }
}

package dev.colorbench.nearcache;

import dev.colorbench.testkit.TestRedisCluster;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** On a Redis Cluster the module refuses to start, and says why (see {@link Tracking#ON_A_CLUSTER}). */
class NearCacheClusterTest {

    @Test
    void refusesToStartOnARedisClusterWithOneClearMessage() {
        SpringApplicationBuilder application = new SpringApplicationBuilder(NearCacheApplication.class)
                .properties("server.port=0", "spring.data.redis.cluster.nodes=" + TestRedisCluster.nodes());

        assertThatThrownBy(application::run).satisfies(failure -> {
            Throwable cause = failure;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            assertThat(cause).isInstanceOf(IllegalStateException.class).hasMessage(Tracking.ON_A_CLUSTER);
        });
    }
}

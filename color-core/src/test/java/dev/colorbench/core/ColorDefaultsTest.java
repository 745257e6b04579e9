package dev.colorbench.core;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code REDIS_CLUSTER_NODES} switches a Redis module to a cluster; without it nothing changes. */
class ColorDefaultsTest {

    @Test
    void redisClusterNodesBecomeSpringsClusterNodesWithAdaptiveTopologyRefresh() {
        StandardEnvironment environment = environment(Map.of("REDIS_CLUSTER_NODES", " 127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002 "));

        assertThat(Binder.get(environment).bind("spring.data.redis.cluster.nodes", Bindable.listOf(String.class)).get())
                .containsExactly("127.0.0.1:7000", "127.0.0.1:7001", "127.0.0.1:7002");
        assertThat(environment.getProperty("spring.data.redis.lettuce.cluster.refresh.adaptive", Boolean.class)).isTrue();
        assertThat(environment.getProperty("spring.data.redis.lettuce.cluster.refresh.period")).isNull();
    }

    @Test
    void withoutItTheModuleTalksToOneServerAsBefore() {
        StandardEnvironment environment = environment(Map.of("REDIS_CLUSTER_NODES", " "));

        assertThat(environment.containsProperty("spring.data.redis.cluster.nodes")).isFalse();
        assertThat(environment.getProperty("spring.data.redis.url")).startsWith("redis");
    }

    @Test
    void clusterNodesSetAnyOtherWayWin() {
        StandardEnvironment environment = environment(Map.of("REDIS_CLUSTER_NODES", "127.0.0.1:7000",
                "spring.data.redis.cluster.nodes", "127.0.0.1:8000"));

        assertThat(environment.getProperty("spring.data.redis.cluster.nodes")).isEqualTo("127.0.0.1:8000");
    }

    private static StandardEnvironment environment(Map<String, Object> given) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("given", given));
        new ColorDefaults().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }
}

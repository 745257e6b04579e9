package dev.colorbench.redis.nearcache;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The application {@link NearCacheLargeValuesTest} runs in a JVM of its own, under the heap it is given: a {@code @Cacheable}
 * service of values of 1 MB, each read three times (its miss, again, and one read earlier), every answer checked. It prints
 * one line, {@code RESULT answered=... wrong=... loads=... bytes=... budget=...}, and exits 0; an OutOfMemoryError exits
 * the JVM ({@code -XX:+ExitOnOutOfMemoryError}).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableCaching
class LargeValuesApplication {

    static final int VALUES = 2_000;

    static final int SIZE = 1 << 20;

    /** A value no other id has: its id in the first four bytes, the id's low byte in every other. */
    static byte[] value(int id) {
        byte[] value = new byte[SIZE];
        Arrays.fill(value, (byte) id);
        ByteBuffer.wrap(value).putInt(0, id);
        return value;
    }

    static boolean isValueOf(byte[] value, int id) {
        return value != null && value.length == SIZE && ByteBuffer.wrap(value).getInt(0) == id && value[SIZE / 2] == (byte) id
                && value[SIZE - 1] == (byte) id;
    }

    /** The service: makes a value on each load, as a database read would. */
    static class Blobs {

        private final AtomicInteger loads = new AtomicInteger();

        @Cacheable("blobs")
        public byte[] blob(int id) {
            loads.incrementAndGet();
            return value(id);
        }

        public int loads() {
            return loads.get();
        }
    }

    @Bean
    Blobs blobs() {
        return new Blobs();
    }

    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(LargeValuesApplication.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.url=" + args[0], "redis.near-cache.prefixes=blobs::", "redis.near-cache.cache-manager.enabled=true",
                        "spring.main.banner-mode=off", "logging.level.root=warn")
                .run()) {
            Blobs blobs = context.getBean(Blobs.class);
            NearCacheTracking tracking = context.getBean(NearCacheTracking.class);
            SplittableRandom random = new SplittableRandom(VALUES);
            int answered = 0;
            int wrong = 0;
            long mostBytes = 0;
            for (int id = 0; id < VALUES; id++) {
                int earlier = random.nextInt(id + 1);
                for (int read : new int[] { id, id, earlier }) {
                    answered++;
                    wrong += isValueOf(blobs.blob(read), read) ? 0 : 1;
                }
                if (id % 100 == 0) {
                    mostBytes = Math.max(mostBytes, tracking.caches().stream().mapToLong(NearCache::bytes).sum());
                }
            }
            mostBytes = Math.max(mostBytes, tracking.caches().stream().mapToLong(NearCache::bytes).sum());
            System.out.printf("RESULT answered=%d wrong=%d loads=%d bytes=%d budget=%d%n", answered, wrong, blobs.loads(), mostBytes,
                    tracking.properties().maximumBytes());
        }
    }
}

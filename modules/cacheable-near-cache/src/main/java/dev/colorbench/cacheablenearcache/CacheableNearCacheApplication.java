package dev.colorbench.cacheablenearcache;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * cacheable-loop with another cache manager: {@code redis.near-cache.cache-manager.enabled=true}
 * (application.yml) makes {@code @Cacheable}'s cache the near cache library's {@code NearCacheManager},
 * which takes color-core's {@code RedisCacheConfiguration} (JSON values with the application's one
 * mapper, no cached nulls, no TTL). The keys and values in Redis are cacheable-loop's, byte for byte:
 * {@code colors::v1::<name>}. Each cache is a {@code NearRedisCache}, a {@code RedisCache} whose reads go
 * through a local copy that Redis invalidates: a dedicated connection tracks the prefix
 * {@code colors::v1::} (RESP3 {@code CLIENT TRACKING}, broadcast mode), and Redis pushes the keys of
 * every write under it.
 *
 * <p>What one {@code GET /colors} costs in Redis, and why:
 * <ul>
 * <li><b>warm: nothing.</b> Each of the 148 {@code Cache.get} calls finds its color in the copy, which
 * holds it until Redis reports a write to its key.</li>
 * <li><b>a miss</b> (the first read after start-up or seeding, or a color the copy has dropped): 1 MGET
 * of that one key per call, one round trip each, one after another as the loop calls; no PTTL, since
 * the colors carry no TTL ({@code read-ttl: false}). When Redis holds nothing either, color-core adds
 * 1 TYPE (a key of another type reads as nothing through MGET), and the method's color is written back
 * with 1 SET: a cold {@code GET /colors} is 148 MGET + 148 TYPE + 148 SET.</li>
 * <li><b>a change</b> by another writer: Redis pushes the invalidation on the tracking connection, which
 * costs the request nothing; the next read of that color is 1 MGET, and keeps it again.</li>
 * <li>while tracking is not active (starting, or the tracking connection lost and not yet back): every
 * call reads Redis, 148 MGET, and nothing is kept.</li>
 * </ul>
 *
 * <p>Bad data is healed by color-core and the library, with no code here: a value that is not a color
 * is a miss, logged once naming its key, and the method's color overwrites it.
 */
@SpringBootApplication
@EnableCaching
public class CacheableNearCacheApplication {

    public static void main(String[] args) {
        SpringApplication.run(CacheableNearCacheApplication.class, args);
    }
}

package dev.colorbench.cacheableasync;

import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.handler.flush.FlushConsolidationHandler;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;

/**
 * The cache (JSON values with the application's one mapper, no cached nulls, immediate writes)
 * and its checks come from color-core's {@code ColorCacheAutoConfiguration}, shared by every
 * caching module. What the asynchronous path needs beyond that is in {@link CacheableAsyncColorStore}.
 */
@SpringBootApplication
@EnableCaching
public class CacheableAsyncApplication {

    public static void main(String[] args) {
        SpringApplication.run(CacheableAsyncApplication.class, args);
    }

    /**
     * Lettuce writes and flushes every command as it is issued, one write to the socket each: the
     * 148 lookups of a request are in flight together, but Redis, woken by the first, mostly reads
     * them one or a few at a time. Netty's {@link FlushConsolidationHandler} on each connection
     * turns the flushes queued on the event loop meanwhile into one write, so Redis finds most of
     * the burst in one read and answers it in one. It costs a single command one more task on the
     * event loop. {@code colorbench.consolidate-flushes=false} leaves Lettuce's flush per command
     * (the pom's {@code flush-per-command} variant, measured beside the default).
     */
    @Bean
    @ConditionalOnProperty(name = "colorbench.consolidate-flushes", havingValue = "true", matchIfMissing = true)
    ClientResourcesBuilderCustomizer consolidateFlushes() {
        return resources -> resources.nettyCustomizer(new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                channel.pipeline().addFirst(new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
            }
        });
    }
}

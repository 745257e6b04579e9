package dev.colorbench.core.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.resource.ClientResources;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command's timeout sits on a timer, and a completed command stays reachable from it until
 * the timer lets go of the cancelled timeout. The core's timer must let go within a few
 * milliseconds: Lettuce's own ticks every 100 ms, which keeps recent requests alive for every young
 * collection to copy. See docs/measuring.md#client-settings.
 */
class CommandTimeoutTimerTest {

    private static final Duration RELEASED_WITHIN = Duration.ofMillis(40);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
            .withUserConfiguration(ColorRedisAutoConfiguration.LettuceConfiguration.class);

    @Test
    void lettuceTimesCommandsOutOnTheCoresTimer() {
        contextRunner.run(context -> assertThat(context.getBean(ClientResources.class).timer())
                .isSameAs(context.getBean(HashedWheelTimer.class)));
    }

    /** Five times, so that a timer ticking every 100 ms would pass by chance about once in a hundred runs. */
    @Test
    void aCancelledTimeoutIsLetGoWithinAFewMilliseconds() {
        contextRunner.run(context -> {
            HashedWheelTimer timer = context.getBean(HashedWheelTimer.class);
            for (int attempt = 0; attempt < 5; attempt++) {
                Timeout timeout = timer.newTimeout(ignored -> { }, 1, TimeUnit.SECONDS);
                long cancelledAt = System.nanoTime();
                timeout.cancel();
                while (timer.pendingTimeouts() > 0 && System.nanoTime() - cancelledAt < RELEASED_WITHIN.toNanos()) {
                    Thread.onSpinWait();
                }
                assertThat(timer.pendingTimeouts()).as("timeouts still held %s after being cancelled", RELEASED_WITHIN).isZero();
                Thread.sleep(attempt * 7L);
            }
        });
    }
}

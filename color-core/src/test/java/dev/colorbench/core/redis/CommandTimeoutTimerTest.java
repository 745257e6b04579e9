package dev.colorbench.core.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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

    /** The median time to let go: a 10 ms tick gives about 5 ms here; Lettuce's 100 ms tick 80 to 100 ms. */
    private static final Duration RELEASED_WITHIN = Duration.ofMillis(20);

    /** How long one try waits at most, well past a 100 ms tick. */
    private static final Duration WAIT_AT_MOST = Duration.ofMillis(250);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
            .withUserConfiguration(ColorRedisAutoConfiguration.LettuceConfiguration.class);

    @Test
    void lettuceTimesCommandsOutOnTheCoresTimer() {
        contextRunner.run(context -> assertThat(context.getBean(ClientResources.class).timer())
                .isSameAs(context.getBean(HashedWheelTimer.class)));
    }

    /**
     * The median of 21 tries. Each try starts soon after the timer let go of the last, just after a tick, so a timer
     * ticking every 100 ms holds nearly every try 80 ms or more. A stall of this JVM lengthens a few tries, not the
     * median: the test judges the timer, not the machine's load.
     */
    @Test
    void aCancelledTimeoutIsLetGoWithinAFewMilliseconds() {
        contextRunner.run(context -> {
            HashedWheelTimer timer = context.getBean(HashedWheelTimer.class);
            List<Long> releasedAfter = new ArrayList<>();
            for (int attempt = 0; attempt < 21; attempt++) {
                Timeout timeout = timer.newTimeout(ignored -> { }, 1, TimeUnit.SECONDS);
                long cancelledAt = System.nanoTime();
                timeout.cancel();
                while (timer.pendingTimeouts() > 0 && System.nanoTime() - cancelledAt < WAIT_AT_MOST.toNanos()) {
                    Thread.onSpinWait();
                }
                releasedAfter.add(System.nanoTime() - cancelledAt);
                Thread.sleep(attempt % 7 * 3L);
            }
            Collections.sort(releasedAfter);
            assertThat(Duration.ofNanos(releasedAfter.get(releasedAfter.size() / 2)))
                    .as("the median time a cancelled timeout stayed held, of %s ns", releasedAfter).isLessThanOrEqualTo(RELEASED_WITHIN);
        });
    }
}

package dev.colorbench.core.redis;

import dev.colorbench.core.palette.Palette;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestQueueSizeTest {

    @Test
    void aRedisConnectionHoldsSixteenWholeRequestsOfALargePaletteInFlight() {
        // one request of the pipelined or async pattern puts one command per color in flight at once
        assertThat(ColorRedisAutoConfiguration.LettuceConfiguration.requestQueueSize(Palette.NAMED)).isEqualTo(10_000);
        assertThat(ColorRedisAutoConfiguration.LettuceConfiguration.requestQueueSize(10_000)).isEqualTo(160_000);
    }
}

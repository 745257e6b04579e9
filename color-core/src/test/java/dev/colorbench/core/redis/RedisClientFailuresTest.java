package dev.colorbench.core.redis;

import java.net.SocketException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;

import static org.assertj.core.api.Assertions.assertThat;

class RedisClientFailuresTest {

    @Test
    void aRawIoErrorFromTheClientIsARedisFailure() {
        SocketException reset = new SocketException("Connection reset");

        assertThat(RedisClientFailures.isUntranslated(reset)).isTrue();
        assertThat(RedisClientFailures.isUntranslated(new CompletionException(reset))).isTrue();
        assertThat(RedisClientFailures.translate(reset)).isInstanceOf(RedisConnectionFailureException.class).hasCause(reset);
    }

    @Test
    void whatSpringTranslatedAndWhatIsNotFromTheClientStayWhatTheyAre() {
        assertThat(RedisClientFailures.isUntranslated(new QueryTimeoutException("timed out", new SocketException()))).isFalse();
        assertThat(RedisClientFailures.isUntranslated(new IllegalStateException("a bug"))).isFalse();
    }
}

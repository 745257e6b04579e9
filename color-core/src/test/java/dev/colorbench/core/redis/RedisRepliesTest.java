package dev.colorbench.core.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

import static org.assertj.core.api.Assertions.assertThat;

class RedisRepliesTest {

    private static RuntimeException reply(String text) {
        return new RedisSystemException("Error in execution", new RedisCommandExecutionException(text));
    }

    @Test
    void aWrongTypeReplyIsFoundInTheCauseChain() {
        assertThat(RedisReplies.isWrongType(reply("WRONGTYPE Operation against a key holding the wrong kind of value"))).isTrue();
        assertThat(RedisReplies.isRefusedWrite(reply("WRONGTYPE Operation against a key holding the wrong kind of value"))).isFalse();
    }

    @Test
    void refusedWritesAreTheRepliesOfAServerThatStillServesReads() {
        assertThat(RedisReplies.refusedWriteCode(reply("OOM command not allowed when used memory > 'maxmemory'."))).isEqualTo("OOM");
        assertThat(RedisReplies.refusedWriteCode(reply("READONLY You can't write against a read only replica."))).isEqualTo("READONLY");
        assertThat(RedisReplies.isRefusedWrite(reply("MISCONF Redis is configured to save RDB snapshots"))).isTrue();
        assertThat(RedisReplies.isWrongType(reply("OOM command not allowed"))).isFalse();
    }

    @Test
    void connectionFailuresAndOtherRepliesAreNeither() {
        RuntimeException down = new RedisConnectionFailureException("Unable to connect", new RedisConnectionException("Connection refused"));

        assertThat(RedisReplies.isWrongType(down)).isFalse();
        assertThat(RedisReplies.isRefusedWrite(down)).isFalse();
        assertThat(RedisReplies.isRefusedWrite(reply("LOADING Redis is loading the dataset in memory"))).isFalse();
        assertThat(RedisReplies.isRefusedWrite(reply("OOMPH not a reply code"))).isFalse();
        assertThat(RedisReplies.isRefusedWrite(new IllegalStateException((String) null))).isFalse();
    }
}

package dev.colorbench.core.redis;

import java.io.IOException;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Failures of the Redis client itself that reach an application untranslated. Spring Data Redis
 * turns Lettuce's exceptions into {@link DataAccessException}s, but on its reactive path (which is
 * also what {@code RedisCache}'s asynchronous {@code retrieve} runs on) it lets a raw Netty I/O
 * error through: a command in flight when Redis dies ends in "connection reset". That is a Redis
 * failure all the same, and must get the same 503 as any other; {@link #translate} makes it one.
 * Anything else that is not a {@code DataAccessException} is a bug, and stays what it is (the
 * core's 500 problem).
 */
public final class RedisClientFailures {

    private RedisClientFailures() {
    }

    /** Whether {@code error} is not yet a {@code DataAccessException} but comes from the Redis client: I/O, Netty or Lettuce. */
    public static boolean isUntranslated(Throwable error) {
        if (error instanceof DataAccessException) {
            return false;
        }
        for (Throwable t = error; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
            String type = t.getClass().getName();
            if (t instanceof IOException || type.startsWith("io.netty.") || type.startsWith("io.lettuce.")) {
                return true;
            }
        }
        return false;
    }

    /** {@code error}, a failure of the Redis client, as the {@code DataAccessException} the error handlers answer with a 503. */
    public static RedisConnectionFailureException translate(Throwable error) {
        return new RedisConnectionFailureException("Redis connection failed", error);
    }
}

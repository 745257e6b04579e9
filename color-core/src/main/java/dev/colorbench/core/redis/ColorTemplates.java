package dev.colorbench.core.redis;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The template of the modules that keep each color's canonical JSON under its own key (or field)
 * and decode it with the {@link ColorCodec} themselves: string keys, values as the bytes Redis
 * holds, so the one JSON mapper is the only serializer and the bytes can be checked or copied as
 * they are.
 */
public final class ColorTemplates {

    private ColorTemplates() {
    }

    /** String keys and hash fields; values and hash values as raw bytes. */
    public static RedisTemplate<String, byte[]> bytes(RedisConnectionFactory connectionFactory) {
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(connectionFactory);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.setHashKeySerializer(RedisSerializer.string());
        template.setHashValueSerializer(RedisSerializer.byteArray());
        return template;
    }
}

package dev.colorbench.core.redis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.Palette;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * What a module that reads the {@code colors::v3::<name>} JSON strings with one MGET does with the
 * keys that read found missing or unreadable (template-mget, mget-raw, near-cache): the same
 * commands, the same words in the log, in one place.
 *
 * <p>MGET answers nil both for a key that is not there (Redis restarted empty) and for a key that
 * holds another type, so <b>1 EXISTS</b> of the keys found empty tells the two apart; only if any of
 * them exists does it cost <b>1 TYPE per empty key</b>, to name the wrong-typed ones in a warning
 * ({@link Healing#report}). Then <b>1 MSET of just those keys</b> writes them from the
 * {@link Palette}, with the {@link ColorCodec}'s JSON. A write Redis refuses (memory full under
 * {@code noeviction}, a read-only replica) is logged, at most once per interval, and the palette's
 * answer the caller already has stands; any other failure is thrown.
 */
public final class JsonKeyHealing {

    private JsonKeyHealing() {
    }

    /**
     * Writes back, from the palette, the colors whose keys held nothing (or another type) and those
     * whose values were unreadable, after reporting them.
     *
     * @param template string keys, values as the bytes Redis holds
     * @param keys the key layout the names are stored in
     * @param missing names whose key MGET answered nil for
     * @param unreadable names whose value was not a readable color for its key
     */
    public static void writeBack(RedisTemplate<String, byte[]> template, ColorCodec codec, JsonKeys keys, Collection<String> missing,
            Collection<String> unreadable) {
        List<String> missingKeys = missing.stream().map(keys::key).toList();
        List<String> wrongType = missingKeys.isEmpty() || template.countExistingKeys(missingKeys) == 0 ? List.of()
                : missing.stream().filter(name -> template.type(keys.key(name)) != DataType.NONE).toList();
        Healing.report(missing, unreadable, wrongType, keys::key);
        List<String> toWrite = new ArrayList<>(missing);
        toWrite.addAll(unreadable);
        write(template, codec, keys, toWrite);
    }

    /**
     * Writes the palette's colors of {@code names} with <b>1 MSET</b>; a write Redis refuses is
     * logged and the caller's answer stands, any other failure is thrown.
     */
    public static void write(RedisTemplate<String, byte[]> template, ColorCodec codec, JsonKeys keys, List<String> names) {
        Map<String, byte[]> encoded = codec.encodeAll(Palette.colors(names), keys::key);
        try {
            template.opsForValue().multiSet(encoded);
        }
        catch (DataAccessException ex) {
            if (!RedisReplies.isRefusedWrite(ex)) {
                throw ex;
            }
            Healing.writeRefused(encoded.size(), ex);
        }
    }
}

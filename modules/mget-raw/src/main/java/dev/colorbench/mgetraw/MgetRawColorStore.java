package dev.colorbench.mgetraw;

import java.util.List;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.redis.CanonicalColorJson;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.redis.RawJsonColors;
import dev.colorbench.core.web.EncodedColorStore;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.stereotype.Component;

/**
 * One MGET, its values copied straight into the answer. One {@code GET /colors} costs <b>1 MGET</b>
 * of all 148 {@code colors::v3::<name>} keys, one round trip, like template-mget; what differs is
 * everything after it. Nothing is turned into a {@code Color} and written back out by Jackson: each
 * value Redis returns is checked on its bytes ({@link CanonicalColorJson}) and, when it is the
 * canonical JSON of a consistent color under its own name, copied as it is into one array buffer of
 * the exact size, which Spring MVC writes to the response as it is.
 * The keys are encoded once, at start-up, and the MGET goes to the connection without the
 * template's serializers. A subset costs 1 MGET of just those keys, one color 1 MGET of its key.
 *
 * <p>What it does with the reply is the core's {@link RawJsonColors}, shared with mget-floor.
 * It still never serves a partial list or broken JSON. A value in another shape (spaces, other
 * property order, extra properties) goes to the core's {@link ColorCodec}: if the codec reads it
 * as a color for its key, that color is served, re-encoded canonically (and left as it is in
 * Redis); if not, it is unreadable. Missing and unreadable values are answered from the palette
 * and written back with <b>1 MSET of just those keys</b>, as in template-mget: before that,
 * <b>1 EXISTS</b> of the keys MGET found empty tells Redis restarting empty from a key holding
 * another type (MGET answers nil for it too), which costs <b>1 TYPE per empty key</b> to name it
 * in the warning. A write Redis refuses (memory full) is logged and the palette's answer stands.
 *
 * <p>Seeding is 1 MSET of all keys, the codec's JSON.
 *
 * <p><b>On a Redis Cluster</b> it reads as template-mget does, in either layout ({@link JsonKeys}): the
 * connection's {@code mGet} is Lettuce's cluster MGET, one MGET per slot, so <b>148 MGETs</b> over the three
 * masters for the plain keys (in a few dozen socket reads at most, varying with thread scheduling), or, with
 * {@code colorbench.redis.hash-tag=true}, <b>1 MGET</b> on the one master holding {@code colors::{v3}::*}.
 */
@Component
class MgetRawColorStore implements EncodedColorStore, ColorSeeder {

    private final RedisTemplate<String, byte[]> template;

    /** The keys encoded once, and what becomes of the values the MGET answers. */
    private final RawJsonColors colors;

    MgetRawColorStore(RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec, JsonKeys keys) {
        this.template = colorTemplate;
        this.colors = new RawJsonColors(colorTemplate, codec, keys);
    }

    @Override
    public byte[] findAll() {
        return colors.allAsArray(mget(colors.allKeys()));
    }

    @Override
    public byte[] findByNames(List<String> names) {
        return colors.asArray(names, mget(colors.keysOf(names)));
    }

    @Override
    public byte[] findOne(String name) {
        return colors.one(name, mget(colors.keysOf(List.of(name))));
    }

    /** 1 MGET on the connection, below the template's serializers: the keys are already bytes. */
    private List<byte[]> mget(byte[][] keys) {
        return template.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(keys));
    }

    @Override
    public void seed() {
        colors.seed();
    }
}

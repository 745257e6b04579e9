package dev.colorbench.templatemget;

import java.util.List;

import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.core.redis.JsonKeyHealing;
import dev.colorbench.core.redis.JsonKeys;
import dev.colorbench.core.redis.StoredColors;
import dev.colorbench.core.web.ColorStore;

import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.stereotype.Component;

/**
 * {@code RedisTemplate} multi-get. One {@code GET /colors} costs <b>1 MGET</b> of all 148
 * {@code colors::v3::<name>} keys: one round trip whatever the number of names, which is the
 * whole point of the pattern. A subset costs 1 MGET of just those keys.
 *
 * <p>Seeding is 1 MSET of all keys. A read never serves a partial list: each value is decoded
 * by the core's {@link ColorCodec} against its own key, and a missing or unreadable one is
 * answered from the palette and written back with <b>1 MSET of just those keys</b>. Before
 * that, <b>1 EXISTS</b> of the keys MGET found empty tells Redis restarting empty (nothing
 * there, nothing to report) from a key holding another type (MGET answers nil for it too),
 * which costs <b>1 TYPE per empty key</b> to name it in the warning (the core's
 * {@link JsonKeyHealing}). A write Redis refuses (memory full) is logged and the palette's answer stands.
 *
 * <p><b>On a Redis Cluster</b> ({@code REDIS_CLUSTER_NODES}) the key layout decides, and both are offered
 * ({@link JsonKeys}). Plain keys, the default, lie in 148 slots on every master; Spring Data Redis 4 passes
 * the MGET to Lettuce's cluster API, which splits it into <b>one MGET per slot, 148 MGETs of one key</b>,
 * sent to the three masters at once and matched as they come back: measured, 148 commands in 3 to 44
 * socket reads summed over the masters (it varies with thread scheduling), every master serving a third. With
 * {@code colorbench.redis.hash-tag=true} the keys are {@code colors::{v3}::<name>}, one slot:
 * <b>1 MGET, 1 round trip</b>, as on one server, and one master serves every read while the other two
 * serve none of them. The MSETs of seeding and healing are split the same way (one per slot).
 */
@Component
class TemplateMgetColorStore implements ColorStore, ColorSeeder {

    private final RedisTemplate<String, byte[]> template;

    private final ValueOperations<String, byte[]> values;

    private final ColorCodec codec;

    private final JsonKeys keys;

    TemplateMgetColorStore(RedisTemplate<String, byte[]> colorTemplate, ColorCodec codec, JsonKeys keys) {
        this.template = colorTemplate;
        this.values = colorTemplate.opsForValue();
        this.codec = codec;
        this.keys = keys;
    }

    @Override
    public List<Color> findAll() {
        return read(keys.all(), Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return read(keys.forNames(names), names);
    }

    private List<Color> read(List<String> keysOfNames, List<String> names) {
        StoredColors stored = codec.decodeAll(names, values.multiGet(keysOfNames));
        if (!stored.complete()) {
            JsonKeyHealing.writeBack(template, codec, keys, stored.missing(), stored.unreadable());
        }
        return stored.colors();
    }

    /** Writes every key; a refused write fails the seeding, which start-up logs and a read repeats. */
    @Override
    public void seed() {
        values.multiSet(codec.encodeAll(Palette.all(), keys::key));
    }
}

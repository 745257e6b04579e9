package dev.colorbench.templatemget;

import java.util.List;
import java.util.Objects;

import dev.colorbench.core.Color;
import dev.colorbench.core.ColorKeys;
import dev.colorbench.core.ColorSeeder;
import dev.colorbench.core.ColorStore;
import dev.colorbench.core.Palette;

import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.stereotype.Component;

/**
 * {@code RedisTemplate} multi-get. One {@code GET /colors} costs <b>1 MGET</b> of all 148
 * {@code colors::v3::<name>} keys: one round trip whatever the number of names, which is the
 * whole point of the pattern. A subset costs 1 MGET of just those keys.
 *
 * <p>Seeding is 1 MSET of all keys. A read that finds keys missing (Redis restarted empty)
 * re-seeds and answers from the palette, so it never serves a partial list.
 */
@Component
class TemplateMgetColorStore implements ColorStore, ColorSeeder {

    private final ValueOperations<String, Color> values;

    TemplateMgetColorStore(RedisTemplate<String, Color> colorTemplate) {
        this.values = colorTemplate.opsForValue();
    }

    @Override
    public List<Color> findAll() {
        return read(ColorKeys.allJsonKeys(), Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return read(ColorKeys.jsonKeys(names), names);
    }

    private List<Color> read(List<String> keys, List<String> names) {
        List<Color> found = values.multiGet(keys);
        if (found == null || found.stream().anyMatch(Objects::isNull)) {
            seed();
            return Palette.colors(names);
        }
        return found;
    }

    @Override
    public void seed() {
        values.multiSet(ColorKeys.paletteByJsonKey());
    }
}

package dev.colorbench.cacheablelist;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorKeys;
import dev.colorbench.testkit.StoredDataContractTest;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Every color lives in the one cached palette, so each kind of bad value is written into it: the
 * palette's JSON cut short, the palette with the color's element in another shape, the palette with
 * another color in its place, and a hash where the palette's string belongs.
 */
class CacheableListStoredDataTest extends StoredDataContractTest {

    CacheableListStoredDataTest() {
        super(name -> ColorKeys.paletteCacheKey(), Map.of("get", 1L));
    }

    @Override
    protected void corrupt(BadValue bad, String key, String name, RedisCommands<String, String> redis) {
        String palette = ColorJson.palette();
        String color = ColorJson.of(Palette.find(name).orElseThrow());
        switch (bad) {
            case GARBLED -> redis.set(key, palette.substring(0, palette.length() / 2));
            case WRONG_SHAPE -> redis.set(key, palette.replace(color, "{\"name\":\"" + name + "\",\"rgb\":[255,99,71]}"));
            case ANOTHER_COLOR -> {
                List<Color> colors = new ArrayList<>(Palette.all());
                colors.set(Palette.names().indexOf(name), Palette.find("navy").orElseThrow());
                redis.set(key, ColorJson.of(colors));
            }
            case WRONG_TYPE -> bad.writeInAJsonStringLayout(redis, key, name);
        }
    }
}

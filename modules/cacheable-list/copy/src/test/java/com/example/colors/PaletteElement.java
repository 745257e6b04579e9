package com.example.colors;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.testkit.copy.StoredColor;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * One color inside the JSON array that colors::v4::palette holds: taking it away leaves a palette with a color missing,
 * spoiling it puts something that is not a color in its place. Either way the key still holds a list.
 */
final class PaletteElement implements StoredColor {

    private static final String KEY = "colors::v4::palette";

    @Override
    public String read(RedisCommands<String, String> redis, String name) {
        String palette = redis.get(KEY);
        Matcher element = (palette == null) ? null : element(name).matcher(palette);
        return (element != null && element.find()) ? element.group() : null;
    }

    @Override
    public void remove(RedisCommands<String, String> redis, String name) {
        String palette = redis.get(KEY);
        Matcher element = element(name).matcher(palette);
        if (!element.find()) {
            throw new IllegalStateException(name + " is not in " + palette);
        }
        boolean first = palette.charAt(element.start() - 1) == '[';
        int start = first ? element.start() : element.start() - 1;
        int end = first ? element.end() + 1 : element.end();
        redis.set(KEY, palette.substring(0, start) + palette.substring(end));
    }

    @Override
    public void corrupt(RedisCommands<String, String> redis, String name) {
        String palette = redis.get(KEY);
        redis.set(KEY, element(name).matcher(palette).replaceFirst(Matcher.quoteReplacement("\"not a color\"")));
    }

    private static Pattern element(String name) {
        return Pattern.compile("\\{\"name\":\"" + Pattern.quote(name) + "\",[^{}]*}");
    }
}

package com.example.colors;

import org.springframework.data.annotation.Id;
import org.springframework.data.redis.core.RedisHash;

/**
 * A color as Spring Data keeps it: one hash per color, colors::v2:&lt;name&gt;, whose fields are the components (and
 * _class), and the id set colors::v2. Spring Data maps the fields itself, so no JSON serializer is involved.
 */
@RedisHash("colors::v2")
record ColorHash(@Id String name, String hex, int red, int green, int blue) {

    static ColorHash of(Color color) {
        return new ColorHash(color.name(), color.hex(), color.red(), color.green(), color.blue());
    }

    /** Whether this is a color named {@code expected}: Spring Data maps a hash with fields gone too, as nulls. */
    boolean isColor(String expected) {
        return name != null && name.equals(expected) && hex != null;
    }

    Color toColor() {
        return new Color(name, hex, red, green, blue);
    }
}

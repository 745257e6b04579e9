package dev.colorbench.hashrepository;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.redis.ColorKeys;

import org.springframework.data.annotation.Id;
import org.springframework.data.redis.core.RedisHash;

/**
 * A color as Spring Data stores it: one Redis hash per color, {@code colors::v2:<name>}, whose
 * fields are the record components (plus {@code _class}; {@code padding} only when the palette is
 * padded), and the id set {@code colors::v2}.
 * The repository maps hash fields itself, so this pattern cannot use the JSON serializer.
 */
@RedisHash(ColorKeys.HASH_KEYSPACE)
record ColorHash(@Id String name, String hex, int red, int green, int blue, String padding) {

    static ColorHash of(Color color) {
        return new ColorHash(color.name(), color.hex(), color.red(), color.green(), color.blue(), color.padding());
    }

    Color toColor() {
        return new Color(name, hex, red, green, blue, padding);
    }
}

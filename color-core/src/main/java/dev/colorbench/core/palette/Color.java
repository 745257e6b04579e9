package dev.colorbench.core.palette;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One named color: the unit of the wire format. The property order is fixed so that every
 * module, whatever its JSON mapper settings, writes the same bytes.
 */
@JsonPropertyOrder({ "name", "hex", "red", "green", "blue" })
public record Color(String name, String hex, int red, int green, int blue) {

    static Color of(String name, int rgb) {
        return new Color(name, "#%06x".formatted(rgb), (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF);
    }
}

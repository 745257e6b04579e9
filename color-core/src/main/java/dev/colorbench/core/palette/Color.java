package dev.colorbench.core.palette;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One named color: the unit of the wire format. The property order is fixed so that every
 * module, whatever its JSON mapper settings, writes the same bytes.
 *
 * <p>{@code padding} is lower-case letters that make a stored value as large as the benchmark asks
 * ({@link Palette#VALUE_BYTES_PROPERTY}), written last and only when there is one: the default
 * palette has none, and its JSON is the five properties alone.
 */
@JsonPropertyOrder({ "name", "hex", "red", "green", "blue", "padding" })
public record Color(String name, String hex, int red, int green, int blue,
        @JsonInclude(JsonInclude.Include.NON_NULL) String padding) {

    /** A color without padding. */
    public Color(String name, String hex, int red, int green, int blue) {
        this(name, hex, red, green, blue, null);
    }

    /** This color with {@code padding} instead of its own (null: none). */
    public Color withPadding(String padding) {
        return new Color(name, hex, red, green, blue, padding);
    }

    static Color of(String name, int rgb) {
        return new Color(name, "#%06x".formatted(rgb), (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF);
    }
}

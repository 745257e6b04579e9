package dev.colorbench.core.palette;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

/** The canonical bytes of the wire format, the oracle every module's answer is compared to. */
public final class ColorJson {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private static final String PALETTE = MAPPER.writeValueAsString(Palette.all());

    private ColorJson() {
    }

    /** What {@code GET /colors} must answer, byte for byte. */
    public static String palette() {
        return PALETTE;
    }

    public static String of(List<Color> colors) {
        return MAPPER.writeValueAsString(colors);
    }

    public static String of(Color color) {
        return MAPPER.writeValueAsString(color);
    }
}

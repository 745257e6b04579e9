package dev.colorbench.inmemory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.EncodedColors;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.web.EncodedColorStore;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The ceiling: the contract served from the in-process palette, rendered to JSON once at start-up
 * with the application's mapper (the whole palette, and each color for subsets and single
 * colors). One request costs <b>no Redis commands</b> and no JSON writing: {@code GET /colors}
 * answers the same 148-color array every time, a subset joins its colors' bytes into one buffer.
 *
 * <p>This is what keeps it a ceiling for every module, mget-raw included: that module copies the
 * bytes Redis returns straight into the response, so a ceiling that wrote JSON on every request
 * could be slower than a Redis module, and "% of ceiling" would no longer mean what Redis costs.
 * The object-writing way is kept as the {@code objects} variant ({@link InMemoryColorStore}).
 */
@Component
@ConditionalOnProperty(name = InMemoryApplication.RENDER, havingValue = "bytes", matchIfMissing = true)
class InMemoryEncodedColorStore implements EncodedColorStore {

    private final byte[] palette;

    private final Map<String, byte[]> byName = new HashMap<>();

    InMemoryEncodedColorStore(JsonMapper mapper) {
        this.palette = mapper.writeValueAsBytes(Palette.all());
        for (Color color : Palette.all()) {
            byName.put(color.name(), mapper.writeValueAsBytes(color));
        }
    }

    /** The same array on every request: the response only reads it. */
    @Override
    public byte[] findAll() {
        return palette;
    }

    @Override
    public byte[] findByNames(List<String> names) {
        return EncodedColors.array(names.stream().map(byName::get).toList());
    }

    @Override
    public byte[] findOne(String name) {
        return byName.get(name);
    }
}

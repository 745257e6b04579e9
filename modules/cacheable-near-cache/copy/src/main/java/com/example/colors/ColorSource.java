package com.example.colors;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;

/**
 * Where the colors come from when Redis does not have them. In your application this is the database that Redis stands
 * in front of; here it is colors.json, in the order GET /colors answers.
 */
@Component
class ColorSource {

    private final Map<String, Color> colors = new LinkedHashMap<>();

    ColorSource(JsonMapper mapper) throws IOException {
        try (InputStream json = new ClassPathResource("colors.json").getInputStream()) {
            for (Color color : mapper.readValue(json, new TypeReference<List<Color>>() { })) {
                colors.put(color.name(), color);
            }
        }
    }

    List<String> names() {
        return List.copyOf(colors.keySet());
    }

    Color find(String name) {
        return colors.get(name);
    }
}

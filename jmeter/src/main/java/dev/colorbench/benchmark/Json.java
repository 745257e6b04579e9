package dev.colorbench.benchmark;

import java.nio.file.Path;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON mapper of the benchmark's hand-over files and of summary.json. */
final class Json {

    static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private Json() {
    }

    static void write(Path file, Object value) {
        RunFiles.write(file, MAPPER.writeValueAsString(value));
    }

    static <T> T read(Path file, Class<T> type) {
        return MAPPER.readValue(file.toFile(), type);
    }
}

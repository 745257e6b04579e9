package dev.colorbench.benchmark;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The harness's one JSON mapper: for JMeter's config, the modules' metric readings and summary.json. */
public final class Json {

    public static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /**
     * Reads a summary.json back through the records that wrote it, also one written by an older harness: a field it did not
     * write yet is null (or 0), and a field no longer written is left out.
     */
    public static final JsonMapper RECORDS = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES).build();

    private Json() {
    }
}

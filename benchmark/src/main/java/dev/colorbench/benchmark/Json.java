package dev.colorbench.benchmark;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The harness's one JSON mapper: for JMeter's config, the modules' metric readings and summary.json. */
public final class Json {

    public static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private Json() {
    }
}

package dev.colorbench.core;

/**
 * The Redis server the tests talk to: the one named by {@code REDIS_URL} when it is set,
 * otherwise an {@link EmbeddedRedis} started once per test JVM. Tests that must stop and
 * restart Redis always start their own instead.
 */
public final class TestRedis {

    private static String url;

    private TestRedis() {
    }

    public static synchronized String url() {
        if (url == null) {
            String configured = System.getenv("REDIS_URL");
            url = (configured != null && !configured.isBlank()) ? configured : EmbeddedRedis.start().url();
        }
        return url;
    }
}

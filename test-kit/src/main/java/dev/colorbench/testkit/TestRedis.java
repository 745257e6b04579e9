package dev.colorbench.testkit;

/**
 * The Redis server the tests talk to: the one named by {@code REDIS_URL} when it is set,
 * otherwise an {@link EmbeddedRedis} started once per test JVM. Tests that must stop and
 * restart Redis always start their own instead.
 */
public final class TestRedis {

    private static String url;

    private static boolean own;

    private TestRedis() {
    }

    public static synchronized String url() {
        if (url == null) {
            String configured = System.getenv("REDIS_URL");
            own = (configured == null || configured.isBlank());
            url = own ? EmbeddedRedis.start().url() : configured;
        }
        return url;
    }

    /** Whether the tests started this server, so that its whole command history is theirs. */
    public static synchronized boolean isOwn() {
        url();
        return own;
    }
}

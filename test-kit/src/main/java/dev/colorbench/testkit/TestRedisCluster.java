package dev.colorbench.testkit;

/**
 * The Redis Cluster the tests talk to: one {@link EmbeddedRedisCluster} per test JVM, started the first
 * time a test asks for it (a second or two) and stopped, its files removed, when the JVM exits. Always the
 * kit's own, never one named by {@code REDIS_CLUSTER_NODES}: the cluster contract stops and starts its
 * masters and counts every command they execute.
 */
public final class TestRedisCluster {

    private static EmbeddedRedisCluster cluster;

    private TestRedisCluster() {
    }

    public static synchronized EmbeddedRedisCluster get() {
        if (cluster == null) {
            EmbeddedRedisCluster started = EmbeddedRedisCluster.start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "colorbench-redis-cluster-stop"));
            cluster = started;
        }
        return cluster;
    }

    /** {@code host:port,host:port,host:port}: what a module reads as {@code REDIS_CLUSTER_NODES}. */
    public static String nodes() {
        return get().clusterNodes();
    }
}

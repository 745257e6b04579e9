package dev.colorbench.benchmark.plan;

/**
 * A module's own meter, read from its actuator right before and right after each measured run:
 * the meters are cumulative, so the difference of the two readings belongs to exactly that run.
 */
public enum ServerMetric {

    /** Time spent serving {@code GET /colors} and the number served, as the module measured it. */
    REQUESTS("http.server.requests", "?tag=uri:/colors&tag=method:GET"),
    /** Bytes the module's JVM allocated, exact at every reading (color-core registers it). */
    ALLOCATED("colorbench.jvm.allocated", ""),
    /** Garbage collection pauses: how many and how long. */
    GC_PAUSES("jvm.gc.pause", "");

    private final String name;

    private final String query;

    ServerMetric(String name, String query) {
        this.name = name;
        this.query = query;
    }

    /** Its name in labels: the meter's name. */
    public String meter() {
        return name;
    }

    String path() {
        return "/actuator/metrics/" + name + query;
    }

    static ServerMetric byMeter(String meter) {
        for (ServerMetric metric : values()) {
            if (metric.name.equals(meter)) {
                return metric;
            }
        }
        throw new IllegalArgumentException("Unknown meter '" + meter + "'");
    }
}

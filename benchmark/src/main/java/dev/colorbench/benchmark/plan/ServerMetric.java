package dev.colorbench.benchmark.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * A meter read right before and right after each measured run, the module's own from its actuator, or the CPU the
 * run counts from outside: the meters are cumulative, so the difference of the two readings belongs to exactly that run.
 */
public enum ServerMetric {

    /** Time spent serving {@code GET /colors} and the number served, as the module measured it. */
    REQUESTS("http.server.requests", "?tag=uri:/colors&tag=method:GET"),
    /** Bytes the module's JVM allocated, exact at every reading (color-core registers it). */
    ALLOCATED("colorbench.jvm.allocated", ""),
    /** Garbage collection pauses: how many and how long. */
    GC_PAUSES("jvm.gc.pause", ""),
    /** The histogram of {@code GET /colors} with microsecond buckets, from color-core's actuator endpoint {@code latency}. */
    LATENCY("colorbench.latency", ""),
    /**
     * Not the module's own: the CPU the row's JVM, its store and JMeter have used, counted from outside them by the run,
     * which serves it on a port of its own ({@code run.CpuReadings}).
     */
    CPU("colorbench.cpu", "");

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

    /** Where the reading of {@code target} is: on the module's actuator, or, for {@link #CPU}, on the run's own port. */
    public String path(String target) {
        return switch (this) {
            case CPU -> "/cpu/" + target;
            case LATENCY -> "/actuator/latency";
            default -> "/actuator/metrics/" + name + query;
        };
    }

    /**
     * The order of the readings around a run: the latency histogram, whose reading allocates its copy and encoding in the
     * module, first before the run and last after it, so that what its readings allocate falls outside the run's allocation.
     */
    public static List<ServerMetric> inReadingOrder(boolean before) {
        List<ServerMetric> order = new ArrayList<>(List.of(values()));
        order.remove(LATENCY);
        order.add(before ? 0 : order.size(), LATENCY);
        return order;
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

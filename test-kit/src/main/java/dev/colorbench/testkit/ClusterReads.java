package dev.colorbench.testkit;

import java.util.function.IntSupplier;

/** What one full read costs on the cluster, measured and printed the same way by the full cluster contract and the light check. */
final class ClusterReads {

    private ClusterReads() {
    }

    /**
     * Runs {@code read} once to warm up, then once counted on every master; prints the sum and each master's share.
     *
     * @param read one {@code GET /colors} that must answer the palette, returning its status
     */
    static ClusterCommandStats.Usage measure(String test, ClusterCommandStats stats, IntSupplier read) {
        read.getAsInt();
        ClusterCommandStats.Usage usage = stats.usage(read::getAsInt);
        System.out.printf("%s on a 3-master cluster: one GET /colors cost %s in %d round trips; per master %s%n",
                test, usage.commands(), usage.roundTrips(), usage.perMaster());
        return usage;
    }
}

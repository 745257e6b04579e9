package dev.colorbench.benchmark.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.modules.Store;

/**
 * Verifies before any load: every module's {@code GET /colors} is the canonical palette, byte for
 * byte, and what one request costs it in Redis, counted from outside. Redis's counters are read
 * only once every module has answered (and so seeded its keys) and while nothing else runs, so
 * that they belong to one module at a time.
 */
public final class Verifier {

    /** Sequential requests a module's cost is averaged over. */
    private static final int COST_SAMPLE = 20;

    private Verifier() {
    }

    public static Verification verify(List<RunningModule> modules, DataStores stores, String expectedPalette) {
        AnswerVerifier answers = new AnswerVerifier(expectedPalette);
        modules.forEach(module -> answers.verify(module.target().id(), module.baseUri()));
        List<Verification.Check> checks = new ArrayList<>();
        boolean anyOnCluster = modules.stream().anyMatch(module -> module.target().redisCluster());
        Map<String, RedisCost> otherServers = new LinkedHashMap<>();
        try (RedisCost cost = RedisCost.of(stores.redisUrl()); RedisCost clusterCost = anyOnCluster ? RedisCost.ofCluster(stores.clusterMasterUrls()) : null;
                DatabaseCost queries = DatabaseCost.of(stores.databaseUrl())) {
            for (RunningModule module : modules) {
                String id = module.target().id();
                Store store = module.target().module().store();
                RedisCost costs = module.target().redisCluster() ? clusterCost
                        : module.target().server() == null ? cost
                        : otherServers.computeIfAbsent(stores.redisUrlsOf(module.target()).get(0), RedisCost::of);
                Verification.Cost redis = costs.measure(COST_SAMPLE, () -> answers.verify(id, module.baseUri()));
                Verification.Cost database = null;
                if (store == Store.POSTGRESQL && module.target().copy()) {
                    // a copy reads a database of its own
                    try (DatabaseCost ownQueries = DatabaseCost.of(stores.copyDatabaseUrl(module.target()))) {
                        database = ownQueries.measure(COST_SAMPLE, () -> answers.verify(id, module.baseUri()));
                    }
                }
                else if (store == Store.POSTGRESQL) {
                    database = queries.measure(COST_SAMPLE, () -> answers.verify(id, module.baseUri()));
                }
                // a near cache answers warm requests from its copy: it asks Redis nothing, by design
                boolean askedNothing = store == Store.REDIS && redis.commandsPerRequest() < 1 && !module.target().module().nearCache()
                        || store == Store.POSTGRESQL && database.commandsPerRequest() < 1;
                if (askedNothing) {
                    throw new AnswerVerifier.WrongAnswerException(id, "it answered without asking its " + store
                            + " anything: it no longer reads its store, its numbers would mean nothing");
                }
                checks.add(new Verification.Check(id, redis, database));
                Verification.Check check = checks.get(checks.size() - 1);
                Console.info("verified %-26s answer = canonical palette, per request: %s (%s)%s".formatted(id, check.describeWork(),
                        check.roundTrips() == null ? "round trips unknown" : Format.number(check.roundTrips()) + " round trip"
                                + (check.roundTrips() == 1 ? "" : "s"), redis.masters().isEmpty() ? "" : "; by master: " + redis.describeMasters()));
            }
            return new Verification(cost.serverVersion(), stores.describe(), checks);
        }
        finally {
            otherServers.values().forEach(RedisCost::close);
        }
    }
}

package dev.colorbench.benchmark.run;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.Format;

/** What the run established before any load: every module's answer was right, and what one request costs it. */
public record Verification(String redisVersion, String redis, List<Check> checks) {

    /**
     * The average cost of one {@code GET /colors}: calls per Redis command (or per normalized SQL
     * statement), their sum, round trips (null when the server cannot tell), and on a Redis Cluster each
     * master's share (empty on one server).
     */
    public record Cost(Map<String, Double> commands, double commandsPerRequest, Double roundTrips, List<Cost> masters) {

        public Cost {
            masters = List.copyOf(masters);
        }

        public Cost(Map<String, Double> commands, double commandsPerRequest, Double roundTrips) {
            this(commands, commandsPerRequest, roundTrips, List.of());
        }

        /** On a cluster, the commands and round trips of each master, e.g. {@code 49 / 50 / 49 commands in 49 / 50 / 49 round trips}; else empty. */
        public String describeMasters() {
            if (masters.isEmpty()) {
                return "";
            }
            return masters.stream().map(master -> Format.number(master.commandsPerRequest())).collect(Collectors.joining(" / ")) + " commands in "
                    + masters.stream().map(master -> master.roundTrips() == null ? "?" : Format.number(master.roundTrips()))
                            .collect(Collectors.joining(" / ")) + " round trips";
        }

        /** {@code 1 MGET}, {@code 1 SMEMBERS + 148 HGETALL}, {@code none}. */
        public String describeCommands() {
            return commands.isEmpty() ? "none" : commands.entrySet().stream()
                    .map(command -> Format.number(command.getValue()) + " " + command.getKey().toUpperCase()).collect(Collectors.joining(" + "));
        }
    }

    /**
     * One row: its answer was the canonical palette, and what a request cost in Redis and, for a
     * database module, in PostgreSQL ({@code null} otherwise): statements per normalized query.
     */
    public record Check(String target, Cost redis, Cost database) {

        /** What one request asked of the row's store: its Redis commands, or its SQL statements for a database module. */
        public String describeWork() {
            return database == null ? redis.describeCommands()
                    : Format.number(database.commandsPerRequest()) + " SQL quer" + (database.commandsPerRequest() == 1 ? "y" : "ies");
        }

        /** Round trips to the row's store per request. */
        public Double roundTrips() {
            return database == null ? redis.roundTrips() : database.roundTrips();
        }
    }

    public Check of(String target) {
        return checks.stream().filter(check -> check.target().equals(target)).findFirst()
                .orElseThrow(() -> new IllegalStateException("Module " + target + " was not verified"));
    }
}

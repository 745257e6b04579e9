package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

import dev.colorbench.benchmark.Format;
import dev.colorbench.testkit.statistics.Interval;
import dev.colorbench.testkit.statistics.Statistics;
import dev.colorbench.benchmark.results.Spread;

/**
 * The fleet on paper: what serving {@code R} requests a second would take of application cores, Redis cores and the
 * network, worked out from what one request was measured to cost, from outside the processes (docs/fleet.md).
 *
 * <p>Per row, four figures ({@link Figures}): requests a second one application core serves ({@code 1e6 / module CPU µs
 * per request}), requests a second one Redis core serves ({@code 1e6 / Redis CPU µs per request}, summed over a cluster's
 * masters), and the bytes one request sends to Redis and gets back from it. Redis serves commands on one main thread by
 * default, so the Redis rate is also the most one Redis server, or one shard, serves. At a rate {@code R} ({@link Need}):
 * application cores {@code R / app rate}, Redis cores {@code R / Redis rate}, shards that many rounded up, MB/s (10^6
 * bytes) each way {@code R x bytes / 1e6}, and which side needs more cores. Every figure keeps its bounds: a core count
 * from the rate's high bound is the low end of its interval.
 *
 * <p>The model leaves out the network between hosts, Redis I/O threads, replicas serving reads, and uneven spread of
 * keys over shards; it assumes each shard gets an equal share of the requests.
 *
 * <p>For a scenario: give each row a {@link Row} built from its spreads ({@link Row#of(String, Spreads)}; a scenario's
 * {@code RowFigures.fleet()} has them) and call {@link #section(String, String, List, String)}, which renders the same
 * table as the headline's at the default rates and {@code -Dbenchmark.fleetRate}, for example
 * {@code Fleet.section("workload-fleet", "What a fleet needs from Redis, for this workload", rows, Fleet.RANGE)}.
 */
public final class Fleet {

    /** The property that adds a rate of the reader's own to the table: requests a second. */
    public static final String RATE_PROPERTY = "benchmark.fleetRate";

    /** The rates every table shows. */
    public static final List<Double> DEFAULT_RATES = List.of(10_000.0, 100_000.0, 1_000_000.0);

    /** The link speed the table checks each host's network against, in Gbit/s: a common data-centre NIC. */
    public static final double NIC_GBITS = 10;

    /** The application host the table checks the link of: cores it has, all of them serving the row. */
    public static final int HOST_CORES = 16;

    /** The highest rate {@link #RATE_PROPERTY} accepts: beyond it the arithmetic says nothing a reader could use. */
    public static final double MAX_RATE = 1e9;

    /** What the bounds of the headline's figures are. */
    public static final String INTERVAL = "95 % interval over the rounds";

    /** What the bounds of a scenario's figures are. */
    public static final String RANGE = "range of the repetitions";

    /** The one sentence on what the model does not see; the headline and every scenario table say it. */
    static final String LEAVES_OUT = "The model leaves out the network between hosts (only the bytes are counted), Redis I/O threads, "
            + "replicas serving reads, and uneven load: it assumes keys, and requests, spread evenly over the shards.";

    private Fleet() {
    }

    /**
     * One row's figures per request: requests a second per application core and per Redis core (null without Redis),
     * bytes per request to Redis and from Redis (null without Redis). In summary.json, a headline row's {@code fleet}.
     */
    public record Figures(Interval appRequestsPerCore, Interval redisRequestsPerCore, Interval bytesToRedis, Interval bytesFromRedis,
            Interval applicationOverRedis, Boolean sidesApart) {

        /**
         * Figures without the paired comparison of the two sides (a scenario's ranges, or a row without Redis): which side needs
         * more cores is then read from the two figures' bounds.
         */
        public Figures(Interval appRequestsPerCore, Interval redisRequestsPerCore, Interval bytesToRedis, Interval bytesFromRedis) {
            this(appRequestsPerCore, redisRequestsPerCore, bytesToRedis, bytesFromRedis, null, null);
        }

        /**
         * From each round's figures per request (by round): the module's CPU µs, Redis's CPU µs (null: the row has no
         * Redis), bytes to and from Redis. Each rate is taken per round, then its interval over the rounds.
         */
        public static Figures byRound(Map<Integer, Double> moduleMicros, Map<Integer, Double> redisMicros, Map<Integer, Double> toRedis,
                Map<Integer, Double> fromRedis) {
            return byRound(moduleMicros, redisMicros, toRedis, fromRedis, round -> 1);
        }

        /** The same, of rounds run in forks ({@code forkOf} names each round's), for one row alone. */
        public static Figures byRound(Map<Integer, Double> moduleMicros, Map<Integer, Double> redisMicros, Map<Integer, Double> toRedis,
                Map<Integer, Double> fromRedis, java.util.function.IntUnaryOperator forkOf) {
            Tables tables = new Tables(forkOf);
            tables.add("row", moduleMicros, redisMicros, toRedis, fromRedis);
            return tables.figures("row");
        }

        static Map<Integer, Double> perCore(Map<Integer, Double> micros) {
            Map<Integer, Double> rates = new java.util.TreeMap<>();
            micros.forEach((round, value) -> rates.put(round, value == null || value <= 0 ? null : 1e6 / value));
            return rates;
        }
    }

    /**
     * Every row's fleet figures by round, each as a table of the one statistics core ({@link Statistics#rounds}): each interval
     * is drawn with the spread pooled across the rows, as every headline figure's is.
     */
    static final class Tables {

        private final java.util.function.IntUnaryOperator forkOf;

        private final Map<String, Map<Integer, Double>> app = new java.util.LinkedHashMap<>();

        /** Each row's CPU µs per request, module and Redis apart: which side needs more cores, taken round by round. */
        private final Map<String, Map<Integer, Double>> moduleMicros = new java.util.LinkedHashMap<>();

        private final Map<String, Map<Integer, Double>> redisMicros = new java.util.LinkedHashMap<>();

        private final Map<String, Map<Integer, Double>> redis = new java.util.LinkedHashMap<>();

        private final Map<String, Map<Integer, Double>> toRedis = new java.util.LinkedHashMap<>();

        private final Map<String, Map<Integer, Double>> fromRedis = new java.util.LinkedHashMap<>();

        private Statistics.Rounds[] drawn;

        Tables(java.util.function.IntUnaryOperator forkOf) {
            this.forkOf = forkOf;
        }

        /** A row's figures per request by round: the module's CPU µs, Redis's (null: the row has no Redis), bytes to and from Redis. */
        void add(String row, Map<Integer, Double> moduleMicros, Map<Integer, Double> redisMicros, Map<Integer, Double> to, Map<Integer, Double> from) {
            app.put(row, Figures.perCore(moduleMicros));
            this.moduleMicros.put(row, moduleMicros);
            if (redisMicros != null) {
                this.redisMicros.put(row, redisMicros);
                redis.put(row, Figures.perCore(redisMicros));
                toRedis.put(row, to);
                fromRedis.put(row, from);
            }
            drawn = null;
        }

        Figures figures(String row) {
            if (drawn == null) {
                drawn = new Statistics.Rounds[] {Statistics.rounds(app, forkOf), Statistics.rounds(redis, forkOf), Statistics.rounds(toRedis, forkOf),
                        Statistics.rounds(fromRedis, forkOf), Statistics.rounds(moduleMicros, forkOf)};
            }
            boolean onRedis = redis.containsKey(row);
            Interval sides = onRedis ? drawn[4].ratio(row, redisMicros.get(row)) : null;
            return new Figures(drawn[0].figure(row), onRedis ? drawn[1].figure(row) : null, onRedis ? drawn[2].figure(row) : null,
                    onRedis ? drawn[3].figure(row) : null, sides, sides == null ? null : drawn[4].apart(row, redisMicros.get(row)));
        }
    }

    /**
     * The same four figures over a scenario's repetitions: median and range. In summary.json, a scenario row's
     * {@code fleet}.
     */
    public record Spreads(Spread appRequestsPerCore, Spread redisRequestsPerCore, Spread bytesToRedis, Spread bytesFromRedis) {

        /**
         * From each repetition's figures per request; a missing one is null. A row has Redis where its bytes were counted
         * (the readings count them for a Redis row only), so without them the Redis side is null: a database row's store
         * CPU is PostgreSQL's, not Redis's.
         */
        public static Spreads ofRuns(List<Double> moduleMicros, List<Double> storeMicros, List<Double> toRedis, List<Double> fromRedis) {
            boolean redis = toRedis.stream().anyMatch(bytes -> bytes != null) && fromRedis.stream().anyMatch(bytes -> bytes != null);
            return new Spreads(Spread.of(perCore(moduleMicros)), redis ? Spread.of(perCore(storeMicros)) : null,
                    redis ? Spread.of(toRedis) : null, redis ? Spread.of(fromRedis) : null);
        }

        /** The spreads as figures whose bounds are the range of the repetitions. */
        public Figures figures() {
            return new Figures(bounds(appRequestsPerCore), bounds(redisRequestsPerCore), bounds(bytesToRedis), bounds(bytesFromRedis));
        }

        private static Interval bounds(Spread spread) {
            return spread == null ? null : new Interval(spread.median(), spread.min(), spread.max(), spread.measured());
        }
    }

    /** One row of a fleet table: its label and its figures per request. */
    public record Row(String label, Figures figures) {

        /** A scenario's row, from its spreads (bounds: {@link #RANGE}). */
        public static Row of(String label, Spreads spreads) {
            return new Row(label, spreads == null ? new Figures(null, null, null, null) : spreads.figures());
        }
    }

    /**
     * What a row needs at {@code rate} requests a second, each with its bounds: application cores, Redis cores (main
     * threads), Redis shards (cores rounded up, at least 1), MB/s to and from Redis, and which side needs more cores.
     * A Redis figure is null for a row without Redis.
     */
    public record Need(double rate, Interval applicationCores, Interval redisCores, Interval redisShards, Interval megabytesToRedis,
            Interval megabytesFromRedis, String moreCores) {
    }

    /** What {@code figures} need at {@code rate} requests a second. */
    public static Need need(Figures figures, double rate) {
        Interval application = cores(figures.appRequestsPerCore(), rate);
        Interval redis = cores(figures.redisRequestsPerCore(), rate);
        Interval shards = redis == null ? null
                : new Interval(shards(redis.estimate()), shards(redis.low()), shards(redis.high()), redis.rounds());
        return new Need(rate, application, redis, shards, megabytes(figures.bytesToRedis(), rate), megabytes(figures.bytesFromRedis(), rate),
                figures.applicationOverRedis() != null && application != null && redis != null
                        ? moreCores(figures.applicationOverRedis(), Boolean.TRUE.equals(figures.sidesApart()))
                        : moreCores(application, redis));
    }

    /** {@code rate / per core}, its low end from the high rate and its high end from the low rate; null where unknown. */
    static Interval cores(Interval perCore, double rate) {
        if (perCore == null || perCore.low() <= 0 || perCore.estimate() <= 0) {
            return null;
        }
        return new Interval(rate / perCore.estimate(), rate / perCore.high(), rate / perCore.low(), perCore.rounds());
    }

    /**
     * Servers, or shards, of one main thread each for {@code cores} of Redis: rounded up, at least one. A hair above a whole
     * number (the division's rounding) is that number.
     */
    static double shards(double cores) {
        return Math.max(1, Math.ceil(cores - 1e-9));
    }

    private static Interval megabytes(Interval bytes, double rate) {
        return bytes == null ? null : bytes.times(rate / 1e6);
    }

    /**
     * Which side needs more cores, from the application's CPU per request over Redis's taken within each round: "level"
     * where the run does not separate them (the headline's rule, {@link Statistics.Rounds#apart(String, Map)}), else the side
     * and by how much.
     */
    static String moreCores(Interval applicationOverRedis, boolean apart) {
        String ratio = applicationOverRedis.estimate() >= 1 ? "application, %s x Redis's".formatted(Format.ratio(applicationOverRedis.estimate()))
                : "Redis, %s x the application's".formatted(Format.ratio(1 / applicationOverRedis.estimate()));
        return apart ? ratio : "level (" + ratio + "; this run does not separate them)";
    }

    /**
     * Which side needs more cores, where no paired ratio was taken (a scenario's rows, from their ranges): "application",
     * "Redis", or "level" where the two ranges overlap (with more than one run); with the ratio of the estimates.
     */
    static String moreCores(Interval application, Interval redis) {
        if (application == null || redis == null) {
            return application == null ? "missing" : "application (no Redis)";
        }
        if (application.rounds() > 1 && redis.rounds() > 1 && application.overlaps(redis)) {
            return "level (ranges overlap)";
        }
        return application.estimate() >= redis.estimate()
                ? "application, %s x Redis's".formatted(Format.ratio(application.estimate() / redis.estimate()))
                : "Redis, %s x the application's".formatted(Format.ratio(redis.estimate() / application.estimate()));
    }

    /** The rates of {@code -Dbenchmark.fleetRate}, read from the system properties ({@link #rates(String)}). */
    public static List<Double> rates() {
        return rates(System.getProperty(RATE_PROPERTY));
    }

    /**
     * The default rates, plus {@code property}'s if given, in increasing order.
     *
     * @throws IllegalArgumentException when {@code property} is not a number above 0 and at most {@link #MAX_RATE}
     */
    public static List<Double> rates(String property) {
        TreeSet<Double> rates = new TreeSet<>(DEFAULT_RATES);
        if (property != null && !property.isBlank()) {
            double rate;
            try {
                rate = Double.parseDouble(property.strip().replace("_", ""));
            }
            catch (NumberFormatException ex) {
                rate = Double.NaN;
            }
            if (!(rate > 0 && rate <= MAX_RATE)) {
                throw new IllegalArgumentException("%s must be requests per second, a number above 0 and at most %s, was '%s'".formatted(RATE_PROPERTY,
                        Format.grouped(MAX_RATE), property));
            }
            rates.add(rate);
        }
        return List.copyOf(rates);
    }

    /** The headline's table: every row of the run, bounds over the rounds, at {@link #rates()}. */
    static Section headline(List<ModuleSummary> summaries) {
        return section("fleet", "What a fleet needs from Redis", summaries.stream().filter(summary -> summary.twinOf() == null)
                .map(summary -> new Row(summary.module(), summary.fleet())).toList(), INTERVAL, rates());
    }

    /**
     * A fleet table for {@code rows}, at the default rates and {@code -Dbenchmark.fleetRate}: one line per row and rate,
     * the row's figures per request on its first line. Its {@link Section#data()} holds, per row, its figures and its needs
     * at each rate, for a scenario's part of summary.json.
     *
     * @param id the section's id, unique in the report (an anchor of the page)
     * @param title its heading
     * @param rows the rows, in the order shown
     * @param bounds what the figures' bounds are: {@link #INTERVAL} or {@link #RANGE}
     */
    public static Section section(String id, String title, List<Row> rows, String bounds) {
        return section(id, title, rows, bounds, rates());
    }

    static Section section(String id, String title, List<Row> rows, String bounds, List<Double> rates) {
        List<List<String>> table = new ArrayList<>();
        List<Map<String, Object>> data = new ArrayList<>();
        for (Row row : rows) {
            Figures figures = row.figures() == null ? new Figures(null, null, null, null) : row.figures();
            boolean redis = figures.redisRequestsPerCore() != null;
            List<Need> needs = new ArrayList<>();
            for (int i = 0; i < rates.size(); i++) {
                Need need = need(figures, rates.get(i));
                needs.add(need);
                boolean first = i == 0;
                // every line names its row (the published pages' check reads a row by its first cell); its figures per request once
                table.add(List.of(row.label(),
                        first ? bounded(figures.appRequestsPerCore(), Format::grouped, "missing") + " · " + redisCell(figures.redisRequestsPerCore(), redis, Format::grouped) : "",
                        first ? redisCell(figures.bytesToRedis(), redis, Format::grouped) + " · " + redisCell(figures.bytesFromRedis(), redis, Format::grouped) : "",
                        first ? links(figures, redis) : "",
                        Format.grouped(need.rate()),
                        bounded(need.applicationCores(), Fleet::cores, "missing"),
                        redisCell(need.redisCores(), redis, Fleet::cores),
                        redisCell(need.redisShards(), redis, Format::grouped),
                        redisCell(need.megabytesToRedis(), redis, Fleet::megabytes) + " · " + redisCell(need.megabytesFromRedis(), redis, Fleet::megabytes),
                        need.moreCores()));
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("row", row.label());
            entry.put("figures", figures);
            entry.put("needs", needs);
            data.add(entry);
        }
        return new Section(id, title,
                "What serving a rate would take, worked out from what one request cost in this run, counted from outside the processes: "
                        + "application cores, Redis cores, shards and MB/s to and from Redis (docs/fleet.md). " + LEAVES_OUT,
                List.of("module", "requests / s per application core · per Redis core", "bytes / request to · from Redis",
                        "Gbit/s at full CPU: a shard's link · a %d-core application host's".formatted(HOST_CORES), "at requests / s", "application cores",
                        "Redis cores (main threads)", "Redis shards", "MB/s to · from Redis", "needs more cores"),
                table, List.of(),
                List.of(("Each figure with its %s, bounds in brackets. Requests / s per application core, and per Redis core: 1,000,000 over "
                        + "the CPU µs one request cost the module's JVM alone, or Redis alone (summed over a cluster's masters); the headline's "
                        + "requests / s per core is over both together. Redis serves commands on one main thread, so its rate is also the most "
                        + "one Redis server, or one shard, serves: shards are its cores rounded up. Cores: the rate over the rate per core, the low bound "
                        + "from the high rate. Bytes: what Redis read from and wrote to its clients (INFO stats), per request; MB/s is 10^6 bytes a second. "
                        + "n/a: the row has no Redis. Add a rate with -D%s=<requests per second>. "
                        + "The network: a shard at its CPU limit sends and receives its rate times the bytes per request, and a %d-core application "
                        + "host at its CPU limit the same at %d times one core's rate; each is marked OVER where it exceeds a %s Gbit/s link. "
                        + "Headroom: none. Every core and link is counted 100 %% busy; a fleet kept at 70 %% busy needs 1.43 times these cores.")
                        .formatted(bounds, RATE_PROPERTY, HOST_CORES, HOST_CORES, Format.number(NIC_GBITS))),
                data, List.of());
    }

    /**
     * The links at full CPU, both ways together, in Gbit/s: a shard's at its main thread's limit, and a {@value #HOST_CORES}-core
     * application host's with every core busy, each marked OVER a {@value #NIC_GBITS} Gbit/s link. "n/a" without Redis.
     */
    static String links(Figures figures, boolean redis) {
        if (!redis || figures.bytesToRedis() == null || figures.bytesFromRedis() == null) {
            return "n/a";
        }
        double bytes = figures.bytesToRedis().estimate() + figures.bytesFromRedis().estimate();
        String shard = figures.redisRequestsPerCore() == null ? "missing" : gbits(figures.redisRequestsPerCore().estimate() * bytes);
        String host = figures.appRequestsPerCore() == null ? "missing" : gbits(HOST_CORES * figures.appRequestsPerCore().estimate() * bytes);
        return shard + " · " + host;
    }

    private static String gbits(double bytesPerSecond) {
        double gbits = bytesPerSecond * 8 / 1e9;
        return Format.number(Math.round(gbits * 10) / 10.0) + (gbits > NIC_GBITS ? " OVER" : "");
    }

    private static String redisCell(Interval interval, boolean redis, Function<Double, String> format) {
        return redis ? bounded(interval, format, "missing") : "n/a";
    }

    /** {@code estimate (low-high)}, or the estimate alone when its bounds are one value. */
    static String bounded(Interval interval, Function<Double, String> format, String otherwise) {
        if (interval == null) {
            return otherwise;
        }
        String estimate = format.apply(interval.estimate());
        String low = format.apply(interval.low());
        String high = format.apply(interval.high());
        return low.equals(high) && low.equals(estimate) ? estimate : "%s (%s-%s)".formatted(estimate, low, high);
    }

    /** Cores: two decimals under 1, one under 10, whole above. */
    static String cores(double cores) {
        return cores < 1 ? Format.ratio(cores) : cores < 10 ? Format.number(Math.round(cores * 10) / 10.0) : Format.grouped(cores);
    }

    /** MB/s: one decimal under 100, whole above. */
    static String megabytes(double megabytes) {
        return megabytes < 100 ? Format.number(Math.round(megabytes * 10) / 10.0) : Format.grouped(megabytes);
    }

    private static List<Double> perCore(java.util.Collection<Double> micros) {
        return micros.stream().map(value -> value == null || value <= 0 ? null : 1e6 / value).toList();
    }
}

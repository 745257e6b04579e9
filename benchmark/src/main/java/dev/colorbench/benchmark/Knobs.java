package dev.colorbench.benchmark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Every {@code -Dbenchmark.*} knob in one table: its name, its default, its quick-mode default, what it means and what it
 * accepts. {@link BenchmarkSettings} reads every knob through it, and benchmark/README.md's knobs table is made from it
 * (BenchmarkSettingsTest fails when they differ).
 *
 * <p>A {@code benchmark.*} property that is not in the table stops the run, naming the nearest knob: a typo would
 * otherwise be ignored, and a run of an hour would measure what was not asked. The check must come before Maven builds
 * the modules, so this file needs nothing but the JDK: the root pom's {@code benchmark} and {@code stack} profiles compile
 * it alone and run {@link InBuild} in Maven's JVM at {@code validate}, where every {@code -D} is a system property. It
 * runs as a single-file program too:
 *
 * <pre>
 * java -Dbenchmark.modlues=x benchmark/src/main/java/dev/colorbench/benchmark/Knobs.java   # checks the benchmark.* system properties
 * java benchmark/src/main/java/dev/colorbench/benchmark/Knobs.java --readme                # prints the README's table
 * </pre>
 *
 * <p>Every quick default of a knob is here. Quick mode still changes what no knob sets: a scenario's conditions (fewer client
 * steps, distances, sizes and rates), the outage's timing, the rows some scenarios take, JMeter's first warm-up round, and
 * the report's and the progress estimate's words. Those are the code's own choices, each beside what it changes.
 */
// public: the build runs it in Maven's JVM, from a class loader of its own
public final class Knobs {

    static final String PREFIX = "benchmark.";

    /** What a knob accepts, given and not blank (blank is unset). */
    record Check(String accepts, Predicate<String> test) {

        boolean accepts(String value) {
            try {
                return test.test(value);
            }
            catch (NumberFormatException ex) {
                return false;
            }
        }
    }

    static final Check TEXT = new Check("any text", value -> true);
    static final Check FLAG = new Check("true or false", value -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false"));
    static final Check POSITIVE = new Check("a whole number above 0", value -> Integer.parseInt(value) > 0);
    static final Check NOT_NEGATIVE = new Check("a whole number, 0 or more", value -> Integer.parseInt(value) >= 0);
    static final Check PERCENT = new Check("a number, 0 or more", value -> Double.parseDouble(value) >= 0);
    static final Check ABOVE_ZERO = new Check("a number above 0", value -> Double.parseDouble(value.replace("_", "")) > 0);
    static final Check WHOLE = new Check("a whole number", value -> {
        Long.parseLong(value);
        return true;
    });
    // module ids (a variant as module+variant), scenario names, none: words, comma-separated; whether each names something is checked when the run starts
    static final Check NAMES = new Check("names, comma-separated (letters, digits, '-' and '+')",
            value -> value.matches("\\s*[A-Za-z0-9+_-]+\\s*(,\\s*[A-Za-z0-9+_-]+\\s*)*,?\\s*"));
    static final Check CPUS = new Check("shared or split", value -> value.equals("shared") || value.equals("split"));
    static final Check BODY_CHECK = new Check("whole, digest or length",
            value -> List.of("whole", "digest", "length").contains(value.toLowerCase(Locale.ROOT)));

    /**
     * One knob.
     *
     * @param name the name after {@code benchmark.}
     * @param fullDefault the full run's default; empty: unset, which {@code unset} describes
     * @param quickDefault quick mode's default; {@code null}: the full run's
     * @param unset what an empty default means, for the README
     * @param check what a given value must be
     * @param meaning the README's line
     */
    record Knob(String name, String fullDefault, String quickDefault, String unset, Check check, String meaning) {

        String defaultFor(boolean quick) {
            return quick && quickDefault != null ? quickDefault : fullDefault;
        }

        /** This knob's row of benchmark/README.md's table. */
        String readmeRow() {
            return "| `%s` | %s | %s | %s |".formatted(name, shown(fullDefault), quickDefault == null ? "same" : shown(quickDefault), meaning);
        }

        private String shown(String value) {
            return value.isEmpty() ? unset : "`" + value + "`";
        }
    }

    /** Knobs that are gone, and what took their place: refused with that, not as a typo. */
    private static final Map<String, String> GONE = Map.of("scenarioWarmup",
            "a scenario warms its rows as the headline does (benchmark.warmup, benchmark.warmupCompiling, benchmark.warmupTogether)");

    /** The knobs, in the README's order. Quick mode only changes the defaults: a knob given on the command line always wins. */
    private static final List<Knob> ALL = List.of(
            new Knob("quick", "false", "true", null, FLAG,
                    "smoke run: the quick defaults below, unless a knob is given"),
            new Knob("modules", "", null, "every module and variant (but a variant marked `(when named)`)", NAMES,
                    "comma-separated rows, in the order they are loaded (a variant is `module+variant`)"),
            // Rounds, each row once per round in an order of its own: a ratio is taken within each round, and its interval over the
            // rounds. More, shorter rounds pair rows closer in time and narrow the intervals more than fewer, longer ones
            // (docs/measuring.md#rounds-and-intervals). Quick mode checks that everything works, not how fast: each of its knobs below is
            // the least that still takes every path (a run, a window, a warm-up round), because CI runs every row and scenario with it. A
            // run of 1 s still records every request it started: JMeter lets a request under way at the end finish, and counts it.
            new Knob("repetitions", "8", "1", null, POSITIVE,
                    "measured rounds: each measures every row once, in an order of its own; every ratio is taken within each round, with a 95 % interval over the rounds ([docs/measuring.md](../docs/measuring.md#rounds-and-intervals))"),
            // Ten closed-model clients, as in the source post whose loop every ratio is taken against (docs/measuring.md#what-one-run-does).
            new Knob("threads", "10", null, null, POSITIVE,
                    "closed-model threads (the source post used 10)"),
            // The ramp-up is left out of the figures: fresh JMeter threads climb for a moment, and by its end a run is near its plateau
            // (docs/measuring.md#warm-up-and-steady-state). A run must be long enough that that moment and short drift weigh little,
            // while every second is paid by every row and repetition (docs/measuring.md#rounds-and-intervals).
            new Knob("duration", "5", "1", null, POSITIVE,
                    "seconds of each closed-model (throughput) run, the ramp-up included (so 4 s are measured)"),
            // Two JVMs of one module differ by more than the rounds of one JVM show: the rounds are split over fresh JVMs, and every
            // interval spans them (docs/measuring.md#rounds-and-intervals). Quick: one, the least that takes every path.
            new Knob("forks", "2", "1", null, POSITIVE,
                    "fresh sets of JVMs the headline's rounds are split over: each fork starts, verifies and warms every row again, then runs its rounds; every interval spans the forks ([docs/measuring.md](../docs/measuring.md#rounds-and-intervals))"),
            // Each run its own rounds' orders: two runs with fixed orders would repeat the same pairings, and agree more than two runs
            // of a user's (docs/measuring.md#rounds-and-intervals).
            new Knob("seed", "", null, "drawn", WHOLE,
                    "where the rounds' orders come from: unset, a seed drawn for the run, printed at its start and in the report's conditions; given, the orders of the run that printed it"),
            // Every headline run measures its own noise: this row twice, two JVMs of one module, an A/A pair whose ratios would be
            // 1 on a perfect machine (docs/measuring.md#rounds-and-intervals). The default pattern: most users' starting point.
            new Knob("twin", "template-mget", null, null, NAMES,
                    "the row measured twice in the headline, as an A/A pair that shows the run's own noise (`none`: no pair)"),
            new Knob("rampup", "1", "0", null, NOT_NEGATIVE,
                    "seconds to start the threads, left out of the TPS: with the default 10 threads, one starts every 0.1 s, and a run is near its plateau by then ([docs/measuring.md](../docs/measuring.md#warm-up-and-steady-state))"),
            new Knob("latencyDuration", "4", "1", null, POSITIVE,
                    "seconds of each open-model (latency) run: the headline's two per row, at half and at 80 % of the row's closed-model TPS, and a scenario's at `rate`"),
            new Knob("rate", "50", null, null, POSITIVE,
                    "a scenario's open-model arrivals per second (`variants`); keep it below the slowest module's capacity"),
            // JMeter's open model starts a thread and a connection per arrival: on two shared cores, above this it falls behind its schedule
            // and the failures are the machine's, not the module's (docs/measuring.md#latency-at-a-share-of-throughput).
            new Knob("openModelCap", "1000", null, null, POSITIVE,
                    "the most arrivals a second the headline's open model offers a row, whatever its share of the row's TPS. A pool of threads on kept-alive connections takes the arrivals; on two shared cores JMeter cannot offer much more without becoming the bottleneck ([docs/measuring.md](../docs/measuring.md#latency-at-a-share-of-throughput))"),
            // Rows are warmed in pairs, one per core, at a light load until their JITs are quiet: each JVM's one C2 thread then gets most
            // of a core, and the repetitions agree more closely than with rows warmed one after another or all at once
            // (docs/measuring.md#warm-up-and-steady-state). 20 s, not more: a row still compiling then is warmed on at the measured
            // load until it settles, so a longer light phase only makes the run longer.
            new Knob("warmupTogether", "20", "0", null, NOT_NEGATIVE,
                    "the most seconds a group of rows, one per core, is loaded at 2 clients each before it is warmed at the measured load (`0`: no light phase). It ends as soon as every row's JIT is quiet. In no figure (below, *Steady state*)"),
            // After the light phase a row's own warm-up is short: a row whose JIT is quiet but whose throughput has not settled by then rarely
            // settles later, since the machine's own drift moves it. A row still compiling goes on longer, because stopping it early
            // widens the spread of its repetitions (docs/measuring.md#warm-up-and-steady-state).
            new Knob("warmup", "12", "2", null, NOT_NEGATIVE,
                    "the seconds after which a row at the measured load stops warming once its JIT is quiet, settled or not; it stops earlier if it settles. In no figure"),
            // a loop row's per-request code reaches the JIT's call thresholds many times later than a fast row's
            // (docs/measuring.md#warm-up-and-steady-state)
            new Knob("warmupCompiling", "100", "2", null, NOT_NEGATIVE,
                    "the seconds a row is warmed at the measured load while its JIT is still compiling or its throughput still climbing (at least `warmup`). A scenario warms by the same knobs (`warmupTogether`, `warmup`, `warmupCompiling`, `warmupCompilingRequests`, `warmupLimit`): its figures are as warm as the headline's"),
            // past that, a row still compiling or climbing goes on until it has served twice the calls C2's tiered threshold asks of a method
            // each request runs once (15,000), so a slow row or a slow machine gets the calls a fast one gets, within a stated limit
            // (docs/measuring.md#warm-up-and-steady-state)
            new Knob("warmupCompilingRequests", "30000", "0", null, NOT_NEGATIVE,
                    "past `warmupCompiling`, a row still compiling or climbing goes on until it has served this many requests, its light phase's included: the JIT's thresholds count calls, so a slow row or a slow machine gets the calls a fast one gets"),
            // unset in quick mode: the longer of warmup and warmupCompiling; given a longer warmupCompiling, never below it
            new Knob("warmupLimit", "300", "", "the longer of `warmup` and `warmupCompiling`", NOT_NEGATIVE,
                    "the most seconds any row is warmed at the measured load, whatever it still does (at least `warmupCompiling`)"),
            // Throughput alone looks settled too early: a row is warm when its last windows no longer climb and its JIT was all but idle in them
            // (docs/measuring.md#warm-up-and-steady-state).
            new Knob("warmupWindow", "2", "1", null, POSITIVE,
                    "seconds of one warm-up window"),
            new Knob("warmupWindows", "3", "2", null, POSITIVE,
                    "how many last windows a row's JIT must be quiet in, and its throughput no longer climb, for it to count as settled"),
            new Knob("warmupTolerance", "5", "10", null, PERCENT,
                    "percent of those windows' mean by which a line fitted through them may rise from the first to the last and the row still count as no longer climbing"),
            // JMeter starts cold too: a round of these warm-ups, one per row, comes before the first repetition (plan.Schedule), so each
            // row's first repetition follows the other rows' turns like its later ones (docs/measuring.md#warm-up-and-steady-state).
            new Knob("jmeterWarmup", "5", "1", null, NOT_NEGATIVE,
                    "seconds of JMeter's own closed-model load on each row, all rows in turn before the first measured run (JMeter's JIT and connections). In a full run the first row's turn is longer, so that the round lasts at least 20 s. In no figure"),
            // A failed closed-model request is a defect, except a store's rare 503, which is a figure of its row
            // (docs/measuring.md#what-one-run-does).
            new Knob("errorThreshold", "0", null, null, PERCENT,
                    "percent of a row's closed-model samples that may fail, other than 503s, before the build fails (503s: at most 0.1 %)"),
            // The full run's options gave the MGET modules the shortest pauses and the best p99 (docs/measuring.md#jvm-options). A quick run
            // only checks that every row and scenario works, on CI machines of unknown memory: small heaps, and C1 alone, because most of
            // a module start's CPU goes to its compiler threads.
            new Knob("jvmArgs", "-Xms1g -Xmx1g -XX:+UseParallelGC", "-Xms256m -Xmx256m -XX:+UseParallelGC -XX:TieredStopAtLevel=1", null, TEXT,
                    "JVM options of every module ([docs/measuring.md](../docs/measuring.md#jvm-options) says why). Quick mode starts every module on CI machines of unknown memory, hence smaller heaps. It checks that everything works, not how fast, hence C1 alone: most of a module start's CPU is its JIT's"),
            new Knob("healthTimeout", "120", null, null, POSITIVE,
                    "seconds the modules get to become healthy"),
            new Knob("redisUrl", "", null, "`REDIS_URL` or embedded", TEXT,
                    "the Redis to use"),
            // Long enough for a few thousand samples of every row at 1 ms, in the 3 s the window keeps; taken after the measured runs,
            // in no figure (docs/measuring.md#where-the-cpu-goes). Quick: as short as a window allows (2 s), so that CI keeps the
            // profiles working.
            new Knob("profile", "5", "1", null, NOT_NEGATIVE,
                    "seconds of closed-model load on each row while async-profiler samples its CPU, after the measured runs (0: no profiles). Each row gets `profiles/<row>.html`, a flame graph, and a line in the report's \"Where the CPU goes\" ([docs/measuring.md](../docs/measuring.md#where-the-cpu-goes))"),
            new Knob("servers", "", null, "fetched", TEXT,
                    "the servers the `servers` scenario compares with the run's own Redis, comma-separated: `redis://` URLs of servers you started (only read, like `REDIS_URL`), or paths of server executables the run starts on free ports. Unset: those `benchmark/fetch-servers.sh` fetches (Debian and Ubuntu). With `-Dbenchmark.scenario=all` on a machine where nothing can be fetched, the scenario is left out and says why"),
            new Knob("redisClusterNodes", "", null, "`REDIS_CLUSTER_NODES` or embedded", TEXT,
                    "the Redis Cluster the `cluster` scenario uses: `host:port` of every master, comma-separated (the run only reads `INFO` from each; a password in `REDIS_URL` applies to them too); unset, it starts three masters of its own"),
            new Knob("databaseUrl", "", null, "`DATABASE_URL` or embedded", TEXT,
                    "the PostgreSQL the database rows use (a JDBC URL)"),
            new Knob("reference", "cacheable-loop", null, null, NAMES,
                    "the row every \"x\" ratio is taken against, as the source post did with its loop"),
            // Off: each of JMeter's own dashboards starts a report-generator JVM per row, which lengthens a full run, and the report has every figure.
            new Knob("dashboards", "false", null, null, FLAG,
                    "generate JMeter's HTML dashboard per row (a report-generator JVM each, which makes a full run minutes longer)"),
            // The strongest check: a weaker one saves JMeter no measurable CPU (docs/measuring.md#jmeters-own-cost).
            new Knob("bodyCheck", "whole", null, null, BODY_CHECK,
                    "what JMeter checks of each answer under load besides its status: `whole` (byte for byte), `digest` (its MD5), `length` (a Groovy script; what the `writes` scenario uses). Every answer was compared byte for byte before any load. None is clearly cheaper for JMeter than `whole` ([docs/measuring.md](../docs/measuring.md#jmeters-own-cost))"),
            new Knob("scenario", "headline", null, null, NAMES,
                    "what to run: `headline` (the comparison above), one or more scenarios (below), `all`, or `workload`: the headline under your own `keys`, `valueBytes` and `redisRoundTrip`, in place of the headline and not part of `all` ([docs/workload.md](../docs/workload.md))"),
            // The workload run's knobs: unset, the headline's own (the 148 colors, each its own size, Redis on loopback).
            new Knob("keys", "", null, "148", TEXT,
                    "`workload` only: colors one request reads, 1 to 457,124"),
            new Knob("valueBytes", "", null, "each color's own JSON", TEXT,
                    "`workload` only: bytes of each stored value, 128 to 1,048,576, at most 64 MiB for all the keys together"),
            new Knob("redisRoundTrip", "", null, "none", TEXT,
                    "`workload` only: added to every round trip between the modules and Redis, 0 to 50 ms (`1ms`, `250us`), calibrated and measured as in `distance`"),
            // A scenario compares each row with itself under many conditions, so its runs are shorter and fewer than the headline's
            // (docs/measuring.md#rounds-and-intervals).
            new Knob("scenarioDuration", "6", "1", null, POSITIVE,
                    "seconds of each closed-model run in a scenario (one second of ramp-up left out in the full run)"),
            new Knob("scenarioRepetitions", "2", "1", null, POSITIVE,
                    "repetitions of each of a scenario's conditions, interleaved across rows"),
            // One row per way of paying for a read: the ceiling, a round trip per key, one MGET on request threads, one MGET on an event
            // loop, many GETs in one flush (docs/scenarios.md#which-rows). Quick: the ceiling, the loop, and one module of each other stack and store.
            new Knob("scenarioModules", "in-memory,cacheable-loop,template-mget,reactive-mget,pipelined-get", "in-memory,cacheable-loop,reactive-mget,jdbc-loop", null, NAMES,
                    "the rows a scenario measures unless `modules` names them (below, *Which rows*)"),
            new Knob("javaHome", "", null, "the JDK running Maven", TEXT,
                    "the JDK the modules run on (a JDK 21+ for the virtual-thread rows of `variants`)"),
            new Knob("fleetRate", "", null, "none", ABOVE_ZERO,
                    "a rate of your own, requests per second (above 0, at most 1,000,000,000), that the fleet table shows beside 10,000, 100,000 and 1,000,000 ([docs/fleet.md](../docs/fleet.md)); checked when the run starts"),
            // Shared: splitting the cores favours the fastest rows and does not shorten the MGET rows' latency tail
            // (docs/measuring.md#jmeters-own-cost).
            new Knob("cpus", "shared", null, null, CPUS,
                    "`split`: the modules and Redis on the first half of the cores, JMeter on the other (with `taskset`); `shared`: all on all")
    );

    private static final Map<String, Knob> BY_NAME = ALL.stream().collect(Collectors.toMap(Knob::name, knob -> knob, (a, b) -> {
        throw new IllegalStateException("two knobs named " + a.name());
    }, LinkedHashMap::new));

    private Knobs() {
    }

    /** Checks the {@code benchmark.*} system properties (a problem ends the JVM with status 1), or prints the README's table. */
    public static void main(String[] args) {
        if (List.of(args).contains("--readme")) {
            System.out.println(readmeTable());
            return;
        }
        List<String> problems = problems(System.getProperties());
        if (!problems.isEmpty()) {
            System.err.println(String.join(System.lineSeparator(), problems));
            System.exit(1);
        }
    }

    /**
     * The build's check, as an Ant task (a public {@code execute()} is all Ant asks of one), run in Maven's JVM, whose system
     * properties hold every {@code -D}. Not {@link #main}: Ant would then stand guard against its {@code System.exit} with a
     * security manager, which Java 17 warns of and later Javas refuse.
     */
    public static final class InBuild {

        public void execute() {
            List<String> problems = problems(System.getProperties());
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(System.lineSeparator() + String.join(System.lineSeparator(), problems));
            }
        }
    }

    static List<Knob> all() {
        return ALL;
    }

    /** The knob's value: given and not blank, trimmed; otherwise the default of the mode. */
    static String value(Properties source, boolean quick, String name) {
        Knob knob = BY_NAME.get(name);
        if (knob == null) {
            throw new IllegalArgumentException("no knob benchmark." + name + " in Knobs");
        }
        String given = source.getProperty(PREFIX + name);
        return given != null && !given.isBlank() ? given.trim() : knob.defaultFor(quick);
    }

    /** True when {@code name} is given, and not blank. */
    static boolean given(Properties source, String name) {
        String given = source.getProperty(PREFIX + name);
        return given != null && !given.isBlank();
    }

    /** @throws IllegalArgumentException naming every unknown knob and every value its knob does not accept */
    static void requireValid(Properties source) {
        List<String> problems = problems(source);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join(System.lineSeparator(), problems));
        }
    }

    /** What is wrong with the {@code benchmark.*} properties of {@code source}, one message each; empty when nothing is. */
    static List<String> problems(Properties source) {
        List<String> problems = new ArrayList<>();
        boolean unknown = false;
        for (String property : source.stringPropertyNames().stream().filter(key -> key.startsWith(PREFIX)).sorted().toList()) {
            String name = property.substring(PREFIX.length());
            String value = source.getProperty(property).trim();
            Knob knob = BY_NAME.get(name);
            if (GONE.containsKey(name)) {
                problems.add(property + " is no more: " + GONE.get(name));
            }
            else if (knob == null) {
                String nearest = nearest(name);
                // a far name is no typo of it, and would only mislead
                problems.add(property + " is not a knob" + (distance(name.toLowerCase(Locale.ROOT), nearest.toLowerCase(Locale.ROOT)) <= Math.max(2, name.length() / 3)
                        ? ": did you mean " + PREFIX + nearest + "?" : ", nor near one"));
                unknown = true;
            }
            else if (!value.isEmpty() && !knob.check().accepts(value)) {
                problems.add("%s must be %s, was '%s'".formatted(property, knob.check().accepts(), value));
            }
        }
        if (unknown) {
            problems.add("The knobs (benchmark/README.md, Knobs): "
                    + ALL.stream().map(knob -> PREFIX + knob.name()).collect(Collectors.joining(", ")));
        }
        return problems;
    }

    /** The knob whose name is the fewest edits away, ignoring case. */
    static String nearest(String name) {
        return ALL.stream().map(Knob::name).min(Comparator.comparingInt((String known) -> distance(name.toLowerCase(Locale.ROOT),
                known.toLowerCase(Locale.ROOT)))).orElseThrow();
    }

    /** Edits (insert, delete, replace, swap of neighbours) from {@code a} to {@code b}: a swapped pair is one slip of the fingers. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** benchmark/README.md's knobs table, its header included. */
    static String readmeTable() {
        return "| name | default | quick mode | meaning |\n|---|---|---|---|\n"
                + ALL.stream().map(Knob::readmeRow).collect(Collectors.joining("\n"));
    }
}

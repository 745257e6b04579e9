package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.Progress;

/**
 * Warms every row before anything is measured, until it settles or a limit is reached, a group of rows at a time, one row per core: first at a
 * light load ({@value #LIGHT_CLIENTS} clients each) until every row's JIT of the group is quiet, then at the measured
 * runs' load, each row until the last few windows' throughput no longer climbs <em>and</em> its JIT has all but
 * stopped compiling in them, or a maximum is reached. The report shows how long each took, its last windows and its JIT's
 * time in them, so a row that never settled is visible.
 *
 * <p>Why a group, and why light first: what a row's warm-up waits for is its JVM's one C2 compiler thread (two cores
 * give a JVM one), getting through the methods its load makes hot. Warmed one after another, each row's C2 thread
 * competes with its own ten clients and request threads, and rows are still compiling when measured. Every row at once
 * leaves each C2 thread a sliver of a core. Two rows at two clients each leave each C2 thread most of a core, and the
 * repetitions then agree most closely (docs/measuring.md#warm-up-and-steady-state).
 *
 * <p>A warm-up is in no figure, so a few failed requests in it (a store that stalled for a second on a busy machine)
 * are reported, not fatal; a row that answered none of them stops the run.
 */
public final class SteadyState {

    /**
     * A row's warm-up: how long in all (light and full load), whether it settled, the last windows' throughput
     * (requests per second) and the milliseconds the module's JIT spent compiling during them.
     */
    public record Warmup(String target, double seconds, boolean steady, List<Double> lastWindows, double jitMillis, long requests, long errors) {

        /**
         * Each row's warm-ups over the forks that measured it, as one: settled only if it settled in every fork, its time, requests
         * and errors summed, its last windows and JIT time the last fork's. In the order of the last fork.
         */
        public static List<Warmup> acrossForks(List<List<Warmup>> forks) {
            if (forks.isEmpty()) {
                return List.of();
            }
            return forks.get(forks.size() - 1).stream().map(last -> {
                List<Warmup> all = forks.stream().flatMap(List::stream).filter(warmup -> warmup.target().equals(last.target())).toList();
                return new Warmup(last.target(), all.stream().mapToDouble(Warmup::seconds).sum(), all.stream().allMatch(Warmup::steady),
                        last.lastWindows(), last.jitMillis(), all.stream().mapToLong(Warmup::requests).sum(),
                        all.stream().mapToLong(Warmup::errors).sum());
            }).toList();
        }
    }

    /** Clients per row in the light phase: enough to make the request path hot, few enough to leave the compilers a core. */
    public static final int LIGHT_CLIENTS = 2;

    /** The most of the last windows' time the JIT may have spent compiling for a row to count as steady. */
    public static final double JIT_QUIET_PERCENT = 2;

    private final BenchmarkSettings settings;

    private final int rowsAtOnce;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    public SteadyState(BenchmarkSettings settings) {
        this.settings = settings;
        this.rowsAtOnce = Runtime.getRuntime().availableProcessors();
    }

    public List<Warmup> warm(List<RunningModule> modules) {
        return warm(modules, java.util.Map.of());
    }

    /**
     * The same, the rows paired by how long each took to warm before ({@code earlierSeconds}, by row): a pair lasts as long as
     * its slower row, so rows of like times go together ({@link #byEarlierTimes}). The warm-ups come back in the order of
     * {@code modules}.
     */
    public List<Warmup> warm(List<RunningModule> modules, java.util.Map<String, Double> earlierSeconds) {
        List<Warmup> warmups = new ArrayList<>();
        for (List<RunningModule> group : groups(byEarlierTimes(modules, module -> earlierSeconds.get(module.target().id())), rowsAtOnce)) {
            long groupStart = System.nanoTime();
            long[] lightRequests = new long[group.size()];
            double lightSeconds = settings.warmupTogetherSeconds() > 0 ? warmLightly(group, lightRequests) : 0;
            List<Warmup> groupWarmups = warmAtFullLoad(group, lightSeconds, lightRequests);
            for (int i = 0; i < group.size(); i++) {
                Warmup warmup = groupWarmups.get(i);
                Path log = group.get(i).log();
                Console.info("warmed %-26s %s s, %s: last windows %s requests/s, JIT %s ms in them".formatted(warmup.target(),
                        Format.number(warmup.seconds()), warmup.steady() ? "steady" : "NOT steady",
                        warmup.lastWindows().stream().map(Format::grouped).toList(), Format.grouped(warmup.jitMillis())));
                if (warmup.errors() > 0 && warmup.errors() >= warmup.requests()) {
                    throw new IllegalStateException("Module " + warmup.target() + " failed every one of its " + warmup.requests()
                            + " requests while warming up; see " + log);
                }
                if (warmup.errors() > 0) {
                    Console.info("  %s failed %d of %d warm-up requests (in no figure; the first one's reason is printed above)".formatted(
                            warmup.target(), warmup.errors(), warmup.requests()));
                }
                warmups.add(warmup);
            }
            Progress.warmGroupEnded((System.nanoTime() - groupStart) / 1e9);
        }
        List<String> order = modules.stream().map(module -> module.target().id()).toList();
        warmups.sort(java.util.Comparator.comparingInt(warmup -> order.indexOf(warmup.target())));
        return warmups;
    }

    /**
     * {@code rows} in the order they are best warmed in groups: those warmed before (a fork's first warm-up, an earlier
     * condition's) longest first, so that each group's rows took like times and a row's pair rarely stops long before it; a
     * row with no earlier time ({@code null}) comes first, in its given order. Sorted this way, pairs lose the least time to
     * their slower row: the sum of each pair's longer time is the least any pairing gives.
     */
    static <T> List<T> byEarlierTimes(List<T> rows, java.util.function.Function<T, Double> earlierSeconds) {
        List<T> unknown = rows.stream().filter(row -> earlierSeconds.apply(row) == null).toList();
        List<T> known = rows.stream().filter(row -> earlierSeconds.apply(row) != null)
                .sorted(java.util.Comparator.comparing(earlierSeconds).reversed()).toList();
        List<T> ordered = new ArrayList<>(unknown);
        ordered.addAll(known);
        return ordered;
    }

    /** {@code modules} in groups of {@code size}, in order; the last may be smaller. */
    static <T> List<List<T>> groups(List<T> modules, int size) {
        int each = Math.max(1, size);
        List<List<T>> groups = new ArrayList<>();
        for (int from = 0; from < modules.size(); from += each) {
            groups.add(List.copyOf(modules.subList(from, Math.min(modules.size(), from + each))));
        }
        return groups;
    }

    /**
     * Loads every row of {@code group} with {@value #LIGHT_CLIENTS} clients until each one's JIT was quiet in its last
     * windows (each row stops as soon as its own is), or {@code warmupTogetherSeconds} have passed; returns how long it took,
     * and each row's requests in {@code requests}.
     */
    private double warmLightly(List<RunningModule> group, long[] requests) {
        List<RowLoad> rows = group.stream().map(module -> new RowLoad(module, LIGHT_CLIENTS)).toList();
        Duration window = Duration.ofSeconds(settings.warmupWindowSeconds());
        long start = System.nanoTime();
        boolean quiet = false;
        try {
            while (!quiet && System.nanoTime() - start < settings.warmupTogetherSeconds() * 1_000_000_000L) {
                Pause.of(window);
                rows.forEach(RowLoad::endWindow);
                // a row already quiet stops, leaving its core to the compilers of the rows still compiling
                rows.stream().filter(row -> row.running() && row.jitQuiet(settings.warmupWindows())).forEach(RowLoad::stop);
                quiet = rows.stream().allMatch(row -> row.jitQuiet(settings.warmupWindows()));
            }
        }
        finally {
            rows.forEach(RowLoad::stop);
        }
        for (int i = 0; i < rows.size(); i++) {
            requests[i] = rows.get(i).requests.sum();
        }
        double seconds = Math.round((System.nanoTime() - start) / 1e8) / 10.0;
        Console.info("warmed %s at %d clients each for %s s, their JITs %s (%s requests, %s failed, in no figure)".formatted(
                group.stream().map(module -> module.target().id()).collect(Collectors.joining(" and ")), LIGHT_CLIENTS, Format.number(seconds),
                quiet ? "quiet" : "still compiling", Format.grouped(rows.stream().mapToLong(row -> row.requests.sum()).sum()),
                Format.grouped(rows.stream().mapToLong(row -> row.errors.sum()).sum())));
        return seconds;
    }

    /**
     * Loads every row of {@code group} with the measured runs' clients, side by side, each until it is steady or warmed long enough;
     * {@code lightRequests}, what each served in the light phase, count towards {@code warmupCompilingRequests}.
     */
    private List<Warmup> warmAtFullLoad(List<RunningModule> group, double lightSeconds, long[] lightRequests) {
        List<RowLoad> rows = group.stream().map(module -> new RowLoad(module, settings.threads())).toList();
        Duration window = Duration.ofSeconds(settings.warmupWindowSeconds());
        int windowsNeeded = settings.warmupWindows();
        long maxWindows = Math.max(windowsNeeded, settings.warmupSeconds() / settings.warmupWindowSeconds());
        long maxWindowsCompiling = Math.max(maxWindows, settings.warmupCompilingSeconds() / settings.warmupWindowSeconds());
        long limitWindows = Math.max(maxWindowsCompiling, settings.warmupLimitSeconds() / settings.warmupWindowSeconds());
        Warmup[] done = new Warmup[rows.size()];
        long start = System.nanoTime();
        try {
            while (rows.stream().anyMatch(RowLoad::running)) {
                Pause.of(window);
                boolean changed = false;
                for (int i = 0; i < rows.size(); i++) {
                    RowLoad row = rows.get(i);
                    if (!row.running()) {
                        continue;
                    }
                    row.endWindow();
                    List<Double> last = row.last(row.windows, windowsNeeded);
                    double jitMillis = row.last(row.compiled, windowsNeeded).stream().mapToDouble(Double::doubleValue).sum();
                    boolean quiet = row.jitQuiet(windowsNeeded);
                    int windows = row.windows.size();
                    boolean climbing = climbing(last, settings.warmupTolerancePercent());
                    boolean steady = settled(windows, row.since, windowsNeeded, climbing, quiet);
                    long served = lightRequests[i] + row.requests.sum();
                    if (steady || done(windows, quiet && !climbing, Math.max(maxWindows, row.since + windowsNeeded), maxWindowsCompiling,
                            served >= settings.warmupCompilingRequests(), limitWindows)) {
                        row.stop();
                        changed = true;
                        // the time it took, the meters' readings after each window among it
                        done[i] = new Warmup(row.module.target().id(), lightSeconds + Math.round((System.nanoTime() - start) / 1e8) / 10.0, steady,
                                List.copyOf(last), jitMillis, row.requests.sum(), row.errors.sum());
                    }
                }
                if (changed) {
                    rows.stream().filter(RowLoad::running).forEach(other -> other.since = other.windows.size());
                }
            }
        }
        finally {
            rows.forEach(RowLoad::stop);
        }
        return List.of(done);
    }

    /**
     * The pair rule: a row has settled when its last {@code needed} windows, all of them after the group last changed
     * ({@code since}: the window its pair stopped in), no longer climb and its JIT was quiet in them. A row whose pair stopped
     * gets the other core and climbs for that alone, so the windows before that say nothing of whether it is warm.
     */
    static boolean settled(int windows, int since, int needed, boolean climbing, boolean jitQuiet) {
        return windows - since >= needed && !climbing && jitQuiet;
    }

    /**
     * Whether a row that has not settled has been warmed long enough: {@code maxWindows} once it is quiet (its JIT idle and its
     * throughput no longer climbing); while either goes on, {@code maxWindowsCompiling} and until it has {@code servedEnough}
     * requests, and never past {@code limitWindows}. A row measured while it compiles or climbs climbs during its first measured
     * run, so it gets more time; and the JIT's thresholds count calls, so a row serving few requests a second needs more
     * seconds for the same compilations (docs/measuring.md#warm-up-and-steady-state).
     */
    static boolean done(int windows, boolean quiet, long maxWindows, long maxWindowsCompiling, boolean servedEnough, long limitWindows) {
        return windows >= limitWindows || windows >= maxWindows && quiet || windows >= maxWindowsCompiling && servedEnough;
    }

    /** Whether the JIT compiled for at most {@link #JIT_QUIET_PERCENT} of {@code millis}. */
    static boolean jitQuiet(double jitMillis, long millis) {
        return jitMillis <= millis * JIT_QUIET_PERCENT / 100;
    }

    /**
     * Whether the windows still climb: the line fitted through all of them rises from the first to the last by more than
     * {@code tolerancePercent} of their mean. With three windows that is the last against the first; with more, every window
     * weighs. A row
     * still warming climbs; a warm row on a shared machine wobbles both ways, which more warm-up cannot settle, and which
     * the rounds' intervals carry instead (docs/measuring.md#warm-up-and-steady-state).
     */
    static boolean climbing(List<Double> windows, double tolerancePercent) {
        if (windows.size() < 2) {
            return true;
        }
        double mean = windows.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        // the least-squares line through every window, its rise from the first to the last: a middle window counts too
        double middle = (windows.size() - 1) / 2.0;
        double covariance = 0;
        double variance = 0;
        for (int i = 0; i < windows.size(); i++) {
            covariance += (i - middle) * (windows.get(i) - mean);
            variance += (i - middle) * (i - middle);
        }
        double rise = covariance / variance * (windows.size() - 1);
        return mean <= 0 || rise * 100 / mean > tolerancePercent;
    }

    /**
     * One row under load: its closed-model clients of {@code GET /colors}, started at once, and what each window of it
     * served and compiled, read from the module's own meters.
     */
    private final class RowLoad {

        private final RunningModule module;

        private final AtomicBoolean running = new AtomicBoolean(true);

        private final LongAdder requests = new LongAdder();

        private final LongAdder errors = new LongAdder();

        private final AtomicBoolean errorSaid = new AtomicBoolean();

        private final List<Thread> threads = new ArrayList<>();

        private final List<Double> windows = new ArrayList<>();

        private final List<Double> compiled = new ArrayList<>();

        /** The first window after the group last changed (a row of it stopped): the windows a climb is judged on start there. */
        private int since;

        private long counted;

        private double compiling;

        private boolean jitUnread;

        private long windowStart;

        RowLoad(RunningModule module, int clients) {
            this.module = module;
            this.compiling = compilationMillis();
            this.windowStart = System.nanoTime();
            HttpRequest request = HttpRequest.newBuilder(module.baseUri().resolve("/colors")).timeout(Duration.ofSeconds(10)).build();
            for (int i = 0; i < clients; i++) {
                Thread thread = new Thread(() -> {
                    while (running.get()) {
                        send(request);
                    }
                }, "warm-up " + module.target().id() + " " + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
        }

        /**
         * Closes the current window: the requests a second it served and the milliseconds its JIT compiled in it. Then reads the
         * module's meters as a measured run does, so that the next windows load it as a run will.
         */
        void endWindow() {
            long now = System.nanoTime();
            long total = requests.sum();
            double jit = compilationMillis();
            windows.add((total - counted) * 1e9 / (now - windowStart));
            // a window whose JIT time is unknown counts as one that compiled: never quiet, so never settled on a guess
            compiled.add(Double.isNaN(jit) || Double.isNaN(compiling) ? Double.NaN : jit - compiling);
            counted = total;
            compiling = jit;
            windowStart = now;
            if (running()) {
                ModuleMeters.readAsARunDoes(module);
            }
        }

        /**
         * The module's JIT time so far, or {@code NaN} where it cannot be read, said once on the console: such a row warms until
         * its limit and is reported unsettled, never taken for quiet.
         */
        private double compilationMillis() {
            try {
                return ModuleMeters.compilationMillis(module);
            }
            catch (IllegalStateException unread) {
                if (!jitUnread) {
                    jitUnread = true;
                    dev.colorbench.benchmark.Console.info("[warm-up] " + module.target().id() + ": its JIT time cannot be read (" + unread.getMessage()
                            + "); it warms until its limit and counts as unsettled");
                }
                return Double.NaN;
            }
        }

        /** Whether the JIT was quiet in the last {@code count} windows (and there were that many). */
        boolean jitQuiet(int count) {
            return compiled.size() >= count && SteadyState.jitQuiet(last(compiled, count).stream().mapToDouble(Double::doubleValue).sum(),
                    count * settings.warmupWindowSeconds() * 1000L);
        }

        List<Double> last(List<Double> values, int count) {
            return values.subList(Math.max(0, values.size() - count), values.size());
        }

        boolean running() {
            return running.get();
        }

        /**
         * A request that failed: counted, and the first one's reason printed, since a client's failure (a time-out, a reset) leaves
         * nothing in the module's log.
         */
        private void failed(String why) {
            errors.increment();
            if (errorSaid.compareAndSet(false, true)) {
                Console.info("  %s: a warm-up request failed: %s (the module's log: %s)".formatted(module.target().id(), why, module.log()));
            }
        }

        /** Stops the clients and waits for their last requests, so that the next load starts on an idle module. */
        void stop() {
            running.set(false);
            for (Thread thread : threads) {
                try {
                    thread.join(15_000);
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private void send(HttpRequest request) {
            try {
                HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() != 200) {
                    failed("HTTP " + response.statusCode());
                }
            }
            catch (IOException ex) {
                failed(ex.toString());
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            requests.increment();
        }
    }
}

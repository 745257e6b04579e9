package dev.colorbench.benchmark;

import java.util.List;
import java.util.Locale;

/**
 * The report as a reader sees it: one self-contained HTML page (charts drawn as inline SVG, no
 * script, no CDN, so it opens offline), the same table in Markdown for an issue or a pull request,
 * and a short table for the console.
 */
final class ReportPage {

    private static final String[] COLORS = { "#4e79a7", "#e15759", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948" };

    private static final String SERVER_TIMING_NOTE = "Server-side µs / request: the module's own mean time per GET /colors "
            + "(Micrometer's http.server.requests timer, from the request entering the server to the response written), read from "
            + "the actuator just before and just after each measured run, so warm-up and other runs are left out; the median of the "
            + "repetitions, their range in brackets. It leaves out the network and JMeter, which JMeter's milliseconds include. "
            + "\"missing\": a reading failed or did not match JMeter's sample count; it is never shown as 0.";

    private final BenchmarkSettings settings;

    private final BenchmarkReport.Environment environment;

    private final List<ModuleSummary> modules;

    ReportPage(BenchmarkSettings settings, BenchmarkReport.Environment environment, List<ModuleSummary> modules) {
        this.settings = settings;
        this.environment = environment;
        this.modules = modules;
    }

    String consoleTable() {
        StringBuilder out = new StringBuilder();
        out.append("%-22s %-8s %10s %10s %16s %9s %8s %16s %24s %8s%n".formatted("module", "stack", "cmds/req", "trips/req",
                "TPS med (min-max)", "% ceiling", "x loop", "open p50/p99 ms", "server us/req closed/open", "errors"));
        for (ModuleSummary m : modules) {
            out.append("%-22s %-8s %10s %10s %16s %9s %8s %16s %24s %7.2f%%%n".formatted(m.module(), m.stack(),
                    number(m.redisCommandsPerRequest()), optional(m.redisRoundTripsPerRequest()),
                    "%.0f (%.0f-%.0f)".formatted(m.tpsMedian(), m.tpsMin(), m.tpsMax()), percent(m.percentOfCeiling()), times(m.ratioToLoop()),
                    m.openModelLatency().p50Ms() + " / " + m.openModelLatency().p99Ms(),
                    micros(m.serverMeanMicrosThroughput()) + " / " + micros(m.serverMeanMicrosOpenModel()), m.errorPercent()));
        }
        return out.toString();
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("| module | pattern | stack | Redis commands / request | round trips / request | TPS median (min-max) | % of ceiling | x loop "
                + "| open-model latency ms mean / p50 / p95 / p99 / max | closed-model latency ms mean / p50 / p95 / p99 / max "
                + "| server-side µs / request, open model, median (min-max) | server-side µs / request, closed model, median (min-max) "
                + "| errors | samples |\n");
        md.append("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for (ModuleSummary m : modules) {
            md.append("| %s | %s | %s | %s | %s | %.0f (%.0f-%.0f) | %s | %s | %s | %s | %s | %s | %.2f %% | %d |\n".formatted(m.module(),
                    m.pattern().replace("|", "\\|"), m.stack(), commands(m), optional(m.redisRoundTripsPerRequest()), m.tpsMedian(),
                    m.tpsMin(), m.tpsMax(), percent(m.percentOfCeiling()), times(m.ratioToLoop()), latency(m.openModelLatency()),
                    latency(m.throughputLatency()), micros(m.serverMeanMicrosOpenModel()), micros(m.serverMeanMicrosThroughput()),
                    m.errorPercent(), m.samples()));
        }
        md.append("\n").append(conditions()).append("\n\n").append(SERVER_TIMING_NOTE).append("\n");
        return md.toString();
    }

    /** One sentence saying where the numbers come from, under every table. */
    private String conditions() {
        BenchmarkReport.Environment e = environment;
        return ("%s run, %s, commit %s: %d repetition(s) interleaved across modules; closed model %d threads for %d s (TPS after a %d s ramp-up); "
                + "open model %d req/s for %d s; %d s warm-up left out. %d cores, %d MB, %s, JVM options %s, Redis %s (%s). "
                + "JMeter ran on the same machine and shares its cores with the modules.").formatted(e.quick() ? "Quick" : "Full", e.date(),
                        e.gitCommit(), e.repetitions(), e.threads(), e.durationSeconds(), e.rampupSeconds(), e.rate(),
                        e.latencyDurationSeconds(), e.warmupSeconds(), e.cores(), e.memoryMb(), e.jdk(), e.jvmArgs(), e.redisVersion(),
                        e.redis());
    }

    String html() {
        StringBuilder html = new StringBuilder();
        html.append("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>colorbench report</title>
                <style>
                body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
                table{border-collapse:collapse;margin:1em 0;font-size:14px}th,td{border:1px solid #ccc;padding:4px 8px}
                td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}
                .note{background:#fff8e1;border-left:4px solid #f0b400;padding:.5em 1em}
                svg{background:#fff;border:1px solid #eee;margin:.5em 0}
                </style></head><body>
                <h1>Many keys from Redis: the color API, side by side</h1>
                """);
        html.append("<p>").append(escape(conditions())).append("</p>\n");
        html.append("""
                <p class="note">JMeter runs on the same machine as the modules and Redis and shares its cores with them: the
                absolute numbers are this machine's, the ratios between modules are what carries over. JMeter records whole
                milliseconds, so sub-millisecond latencies show as 0 or 1 ms. Warm-up samples are left out of every figure.</p>
                <h2>Results</h2>
                <table><tr><th>module</th><th>pattern</th><th>stack</th><th>Redis commands<br>per request</th><th>round trips<br>per request</th>
                <th>TPS median<br>(min-max)</th><th>% of in-memory<br>ceiling</th><th>x loop<br>module</th>
                <th>open-model latency ms<br>mean / p50 / p95 / p99 / max</th><th>closed-model latency ms<br>mean / p50 / p95 / p99 / max</th>
                <th>server-side µs / request<br>open model<br>median (min-max)</th><th>server-side µs / request<br>closed model<br>median (min-max)</th>
                <th>errors</th><th>samples</th><th>JMeter</th></tr>
                """);
        for (ModuleSummary m : modules) {
            html.append("<tr><td>%s</td><td>%s</td><td>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%.0f (%.0f-%.0f)</td>"
                    .formatted(escape(m.module()), escape(m.pattern()), m.stack(), escape(commands(m)), optional(m.redisRoundTripsPerRequest()),
                            m.tpsMedian(), m.tpsMin(), m.tpsMax()));
            html.append("<td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td>"
                    .formatted(percent(m.percentOfCeiling()), times(m.ratioToLoop()), latency(m.openModelLatency()),
                            latency(m.throughputLatency()), micros(m.serverMeanMicrosOpenModel()), micros(m.serverMeanMicrosThroughput())));
            html.append("<td class=n>%.2f %%</td><td class=n>%d</td>".formatted(m.errorPercent(), m.samples()));
            html.append("<td>%s</td></tr>\n".formatted(settings.dashboards()
                    ? "<a href=\"%s/dashboard/index.html\">dashboard</a>, <a href=\"%s/results.csv\">results</a>".formatted(m.module(), m.module())
                    : "<a href=\"%s/results.csv\">results</a>".formatted(m.module())));
        }
        html.append("</table>\n");
        html.append("<p>TPS: samples per second of each closed-model run after its ramp-up; the median of the repetitions, their range in brackets. "
                + "Redis commands and round trips: measured before the load from <code>INFO commandstats</code> and the server's socket reads, "
                + "averaged over sequential requests, from outside the module. Open-model latency: fixed arrival rate, so a slow answer "
                + "cannot delay the next request and hide itself; closed-model latency: the throughput runs, at saturation.</p>\n");
        html.append("<p>").append(escape(SERVER_TIMING_NOTE)).append("</p>\n");
        html.append("<h2>Throughput (median, bars show min-max)</h2>\n").append(tpsChart());
        html.append("<h2>Open-model latency percentiles (ms, at ").append(settings.rate()).append(" req/s)</h2>\n").append(latencyChart());
        html.append("<h2>Throughput over time (closed-model runs, requests started per second)</h2>\n").append(timeChart());
        html.append(seedComparison());
        html.append(environmentTable());
        html.append("</body></html>\n");
        return html.toString();
    }

    private String seedComparison() {
        StringBuilder html = new StringBuilder("""
                <h2>Beside the source post (2019 figures, another machine)</h2>
                <p>The 2019 post measured each case once, on a laptop, 10 threads x 100 loops, with about 100 colors. Its absolute TPS
                cannot be compared with ours; the ratio to the loop module can.</p>
                <table><tr><th>module</th><th>2019 TPS (other machine)</th><th>2019 ratio to loop</th><th>our TPS (median)</th><th>our ratio to loop</th></tr>
                """);
        for (ModuleSummary m : modules) {
            html.append("<tr><td>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%.0f</td><td class=n>%s</td></tr>\n".formatted(
                    m.module(), m.seedTps2019() == null ? "-" : m.seedTps2019(), times(m.seedRatioToLoop2019()), m.tpsMedian(), times(m.ratioToLoop())));
        }
        return html.append("</table>\n").toString();
    }

    private String environmentTable() {
        BenchmarkReport.Environment e = environment;
        String[][] rows = { { "date", e.date() }, { "git commit", e.gitCommit() }, { "JDK (modules)", e.jdk() }, { "module JVM options", e.jvmArgs() },
                { "Redis", e.redisVersion() + ", " + e.redis() }, { "cores", String.valueOf(e.cores()) }, { "memory", e.memoryMb() + " MB" },
                { "OS", e.os() }, { "closed model", e.threads() + " threads, " + e.durationSeconds() + " s, " + e.rampupSeconds() + " s ramp-up" },
                { "open model", e.rate() + " req/s for " + e.latencyDurationSeconds() + " s" }, { "warm-up", e.warmupSeconds() + " s per module, not recorded in any figure" },
                { "repetitions", e.repetitions() + ", interleaved across modules" }, { "mode", e.quick() ? "quick (smoke run, not for conclusions)" : "full" },
                { "load generator", "JMeter 5.6.3 on the same machine, sharing the cores with the modules" } };
        StringBuilder html = new StringBuilder("<h2>Environment</h2>\n<table>\n");
        for (String[] row : rows) {
            html.append("<tr><th>").append(escape(row[0])).append("</th><td>").append(escape(row[1])).append("</td></tr>\n");
        }
        return html.append("</table>\n").toString();
    }

    private String tpsChart() {
        int width = 760;
        int barHeight = 26;
        int left = 180;
        int height = modules.size() * (barHeight + 10) + 40;
        double max = modules.stream().mapToDouble(ModuleSummary::tpsMax).max().orElse(1);
        double scale = (width - left - 80) / Math.max(max, 1);
        StringBuilder svg = svgStart(width, height);
        for (int i = 0; i < modules.size(); i++) {
            ModuleSummary m = modules.get(i);
            int y = 20 + i * (barHeight + 10);
            svg.append(text(left - 8, y + barHeight / 2 + 5, "end", m.module()));
            svg.append("<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>".formatted(left, y, m.tpsMedian() * scale, barHeight, color(i)));
            double x1 = left + m.tpsMin() * scale;
            double x2 = left + m.tpsMax() * scale;
            int mid = y + barHeight / 2;
            svg.append("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>".formatted(x1, mid, x2, mid));
            svg.append("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>".formatted(x1, y + 5, x1, y + barHeight - 5));
            svg.append("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>".formatted(x2, y + 5, x2, y + barHeight - 5));
            svg.append(text((int) x2 + 6, mid + 5, "start", "%.0f TPS".formatted(m.tpsMedian())));
        }
        return svg.append("</svg>\n").toString();
    }

    private String latencyChart() {
        String[] names = { "p50", "p95", "p99" };
        int width = 760;
        int groupHeight = 3 * 14 + 14;
        int left = 180;
        int height = modules.size() * groupHeight + 50;
        double max = modules.stream().mapToDouble(m -> m.openModelLatency().p99Ms()).max().orElse(1);
        double scale = (width - left - 80) / Math.max(max, 1);
        StringBuilder svg = svgStart(width, height);
        for (int i = 0; i < modules.size(); i++) {
            ModuleSummary.Latency latency = modules.get(i).openModelLatency();
            long[] values = { latency.p50Ms(), latency.p95Ms(), latency.p99Ms() };
            int y = 10 + i * groupHeight;
            svg.append(text(left - 8, y + 26, "end", modules.get(i).module()));
            for (int p = 0; p < values.length; p++) {
                int barY = y + p * 14;
                svg.append("<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\" fill-opacity=\"%.2f\"/>".formatted(left, barY,
                        Math.max(1, values[p] * scale), color(i), 1.0 - p * 0.3));
                svg.append(text(left + (int) (values[p] * scale) + 6, barY + 10, "start", names[p] + " " + values[p] + " ms"));
            }
        }
        return svg.append("</svg>\n").toString();
    }

    private String timeChart() {
        int width = 760;
        int height = 300;
        int left = 60;
        int bottom = 40;
        int seconds = 1;
        int max = 1;
        for (ModuleSummary m : modules) {
            for (ModuleSummary.Run run : m.runs()) {
                if (run.phase().equals(Phase.THROUGHPUT.label())) {
                    seconds = Math.max(seconds, run.perSecond().size());
                    max = Math.max(max, run.perSecond().stream().mapToInt(Integer::intValue).max().orElse(0));
                }
            }
        }
        double xScale = (width - left - 180) / (double) Math.max(1, seconds - 1);
        double yScale = (height - bottom - 20) / (double) max;
        StringBuilder svg = svgStart(width, height);
        svg.append("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>".formatted(left, height - bottom, width - 170, height - bottom));
        svg.append("<line x1=\"%d\" y1=\"20\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>".formatted(left, left, height - bottom));
        svg.append(text(left - 6, 26, "end", String.valueOf(max)));
        svg.append(text(left - 6, height - bottom, "end", "0"));
        svg.append(text(width - 170, height - bottom + 18, "end", (seconds - 1) + " s"));
        svg.append(text(left, height - bottom + 18, "start", "0 s"));
        for (int i = 0; i < modules.size(); i++) {
            ModuleSummary m = modules.get(i);
            for (ModuleSummary.Run run : m.runs()) {
                if (!run.phase().equals(Phase.THROUGHPUT.label()) || run.perSecond().isEmpty()) {
                    continue;
                }
                StringBuilder points = new StringBuilder();
                // the last second is partial: leave it out rather than draw a false drop
                int last = Math.max(1, run.perSecond().size() - 1);
                for (int s = 0; s < last; s++) {
                    points.append("%.1f,%.1f ".formatted(left + s * xScale, height - bottom - run.perSecond().get(s) * yScale));
                }
                svg.append("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"><title>%s rep %d</title></polyline>"
                        .formatted(color(i), points.toString().trim(), m.module(), run.repetition()));
            }
            svg.append("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>".formatted(width - 160, 24 + i * 20, color(i)));
            svg.append(text(width - 142, 35 + i * 20, "start", m.module()));
        }
        return svg.append("</svg>\n").toString();
    }

    private static StringBuilder svgStart(int width, int height) {
        return new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-size=\"12\">"
                .formatted(width, height, width, height));
    }

    private static String text(int x, int y, String anchor, String content) {
        return "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">%s</text>".formatted(x, y, anchor, escape(content));
    }

    private static String color(int index) {
        return COLORS[index % COLORS.length];
    }

    private static String commands(ModuleSummary m) {
        if (m.redisCommands().isEmpty()) {
            return "0";
        }
        StringBuilder text = new StringBuilder();
        m.redisCommands().forEach((command, calls) -> text.append(text.isEmpty() ? "" : " + ").append(number(calls)).append(' ')
                .append(command.toUpperCase(Locale.ROOT)));
        return text.toString();
    }

    private static String latency(ModuleSummary.Latency l) {
        return "%.1f / %d / %d / %d / %d".formatted(l.meanMs(), l.p50Ms(), l.p95Ms(), l.p99Ms(), l.maxMs());
    }

    /** The median and range of the server's mean time per request; "missing" where it could not be read, never 0. */
    static String micros(ServerTiming.MeanMicros value) {
        if (value == null) {
            return "missing";
        }
        String text = value.median() == value.min() && value.median() == value.max() ? micro(value.median())
                : "%s (%s-%s)".formatted(micro(value.median()), micro(value.min()), micro(value.max()));
        int repetitions = value.perRepetition().size();
        return value.measuredRepetitions() < repetitions ? text + " [" + value.measuredRepetitions() + " of " + repetitions + " reps]" : text;
    }

    private static String micro(double value) {
        return value >= 100 ? "%.0f".formatted(value) : "%.1f".formatted(value);
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : "%.1f".formatted(value);
    }

    private static String optional(Double value) {
        return value == null ? "n/a" : number(value);
    }

    private static String percent(Double value) {
        return value == null ? "n/a" : "%.1f %%".formatted(value);
    }

    private static String times(Double value) {
        return value == null ? "n/a" : "%.2f".formatted(value);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}

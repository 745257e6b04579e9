package dev.colorbench.benchmark.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.Json;
import tools.jackson.databind.SerializationFeature;

/**
 * The headline page, headline.html: the chart that opens report.html (drawn by the same headline.js), alone on a page of
 * the README picture's size, with the run it comes from. It is made from summary.json's shape, so that a run directory and
 * the committed reference run (docs/results/) give the same page.
 */
final class Headline {

    static final int WIDTH = 1400;

    static final int HEIGHT = 900;

    private Headline() {
    }

    /** The page, from a summary as summary.json holds it ({@code environment}, {@code modules}) and the command of the run. */
    static String page(Map<String, Object> summary, String command) {
        return Report.render("headline.html.mustache", true, Map.of("chartJs", Report.chartJs(), "headlineJs", Report.headlineJs(),
                "headlineData", data(summary), "run", runLine(summary, command)));
    }

    /** summary.json's shape, without scenarios, for a run's own rows: what {@link #page} and report.html draw from. */
    static Map<String, Object> summary(Environment environment, List<ModuleSummary> modules) {
        return shape(new Report.Summary(environment, modules, null, Map.of()));
    }

    /** A summary in summary.json's shape, as the page's script reads it: from the records, so a run and its published copy draw alike. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> shape(Report.Summary summary) {
        return Json.MAPPER.convertValue(summary, Map.class);
    }

    /** summary.json without the runs of each row, as JSON that is safe inside a script element. */
    @SuppressWarnings("unchecked")
    static String data(Map<String, Object> summary) {
        List<Map<String, Object>> modules = ((List<Map<String, Object>>) summary.get("modules")).stream().map(module -> {
            Map<String, Object> row = new LinkedHashMap<>(module);
            row.remove("runs");
            return row;
        }).toList();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("environment", summary.get("environment"));
        data.put("modules", modules);
        data.put("ranking", Ranking.of(Report.Summary.of(summary)));
        return Json.MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(data).replace("</", "<\\/");
    }

    /** {@code ./mvnw -Pbenchmark verify at <commit>, <date>: 2 cores, 24 GB, ...}: what the picture is of. */
    @SuppressWarnings("unchecked")
    static String runLine(Map<String, Object> summary, String command) {
        Map<String, Object> env = (Map<String, Object>) summary.get("environment");
        String date = String.valueOf(env.get("date"));
        int measured = number(env, "durationSeconds") - number(env, "rampupSeconds");
        int forks = env.get("forks") instanceof Number number ? number.intValue() : 1;
        return ("%s at %s, %s: %d cores, %s GB, %s, Redis %s, JMeter on the same cores; %d closed-model threads; bar: geometric mean of %d rounds of %d s%s, "
                + "whisker: its 95 %% interval; * tuned beyond the stock pattern (module README).")
                .formatted(command, env.get("gitCommit"), date.length() >= 10 ? date.substring(0, 10) : date, number(env, "cores"),
                        Format.grouped(((Number) env.get("memoryMb")).doubleValue() / 1024), env.get("moduleJdk"), env.get("redisVersion"),
                        number(env, "threads"), number(env, "repetitions"), measured, forks > 1 ? " in " + forks + " forks" : "");
    }

    private static int number(Map<String, Object> env, String name) {
        return ((Number) env.get(name)).intValue();
    }
}

package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.report.Section;

/** The Chart.js configurations the scenarios draw: one line per row over a numeric x axis, bars per condition. */
final class Charts {

    private static final List<String> COLORS = List.of("#4e79a7", "#e15759", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948",
            "#ff9da7", "#9c755f", "#bab0ac", "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e");

    private Charts() {
    }

    /** A point of a line: {@code y} null where it was not measured. */
    record Point(double x, Double y) {
    }

    /** One line per row, {@code x} and {@code y} on logarithmic axes when asked (figures spanning decades). */
    static Section.Chart lines(String id, String title, Map<String, List<Point>> lines, String xTitle, boolean logX, String yTitle,
            boolean logY) {
        List<Map<String, Object>> datasets = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, List<Point>> line : lines.entrySet()) {
            String color = COLORS.get(i++ % COLORS.size());
            datasets.add(Map.of("label", line.getKey(), "borderColor", color, "backgroundColor", color, "borderWidth", 1.5,
                    "pointRadius", 3, "spanGaps", true,
                    "data", line.getValue().stream().map(point -> point.y() == null ? Map.of("x", point.x())
                            : Map.of("x", point.x(), "y", point.y())).toList()));
        }
        return new Section.Chart(id, title, Map.of("type", "line", "data", Map.of("datasets", datasets), "options",
                Map.of("animation", false, "scales", Map.of("x", axis(xTitle, logX), "y", axis(yTitle, logY)))));
    }

    /** One line per row over labelled steps (such as rates that start at 0, which no logarithmic axis shows); {@code null} where not measured. */
    static Section.Chart categoryLines(String id, String title, List<String> labels, Map<String, List<Double>> lines, String xTitle, String yTitle,
            boolean logY) {
        List<Map<String, Object>> datasets = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, List<Double>> line : lines.entrySet()) {
            String color = COLORS.get(i++ % COLORS.size());
            Map<String, Object> dataset = new LinkedHashMap<>();
            dataset.put("label", line.getKey());
            dataset.put("borderColor", color);
            dataset.put("backgroundColor", color);
            dataset.put("borderWidth", 1.5);
            dataset.put("pointRadius", 3);
            dataset.put("spanGaps", true);
            dataset.put("data", line.getValue());
            datasets.add(dataset);
        }
        return new Section.Chart(id, title, Map.of("type", "line", "data", Map.of("labels", labels, "datasets", datasets), "options",
                Map.of("animation", false, "scales", Map.of("x", Map.of("type", "category", "title", Map.of("display", true, "text", xTitle)),
                        "y", axis(yTitle, logY)))));
    }

    /** Grouped bars: one group per label, one bar per series. */
    static Section.Chart bars(String id, String title, List<String> labels, Map<String, List<Double>> series, String yTitle, boolean logY) {
        List<Map<String, Object>> datasets = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, List<Double>> each : series.entrySet()) {
            String color = COLORS.get(i++ % COLORS.size());
            Map<String, Object> dataset = new LinkedHashMap<>();
            dataset.put("label", each.getKey());
            dataset.put("backgroundColor", color);
            dataset.put("data", each.getValue());
            datasets.add(dataset);
        }
        return new Section.Chart(id, title, Map.of("type", "bar", "data", Map.of("labels", labels, "datasets", datasets), "options",
                Map.of("animation", false, "scales", Map.of("y", axis(yTitle, logY)))));
    }

    private static Map<String, Object> axis(String title, boolean logarithmic) {
        return Map.of("type", logarithmic ? "logarithmic" : "linear", "title", Map.of("display", true, "text", title));
    }
}

package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.benchmark.Format;

/**
 * The figures a page may publish, from one summary.json, and the places where a page says otherwise. A table's row names
 * its module in its first cell; its columns say which figure they hold (TPS, x the reference row, CPU µs, x floor, % of
 * ceiling); anywhere else a
 * figure in TPS, µs or × must be one of the run's. Written as the report writes them: {@code 12,380 TPS}, {@code 109 µs},
 * {@code 26.0×}.
 */
final class PublishedFigures {

    private static final Pattern PROSE = Pattern.compile("(\\d[\\d,]*(?:\\.\\d+)?)\\s?(TPS|µs|×)");

    private final Map<String, Map<String, Object>> modules = new LinkedHashMap<>();

    private final String reference;

    private final Set<String> known = new HashSet<>();

    @SuppressWarnings("unchecked")
    PublishedFigures(Map<String, Object> summary, String reference) {
        this.reference = reference;
        for (Map<String, Object> module : (List<Map<String, Object>>) summary.get("modules")) {
            modules.put((String) module.get("module"), module);
            tps(module).ifPresent(tps -> known.add(tps + " TPS"));
            ratio(module).ifPresent(ratio -> known.add(ratio));
            floor(module).ifPresent(floor -> known.add(floor + "×"));
            Map<String, Object> cpu = (Map<String, Object>) module.get("cpu");
            if (cpu != null) {
                for (String part : List.of("moduleMicros", "storeMicros", "totalMicros")) {
                    median(cpu.get(part)).ifPresent(micros -> known.add(ReportView.micros(micros) + " µs"));
                }
            }
        }
    }

    /** What a page gets wrong, as {@code file:line: text}; empty when every figure is the run's. */
    List<String> problems(String file, String markdown) {
        List<String> problems = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        List<String> header = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            boolean checked = false;
            if (line.startsWith("|")) {
                List<String> cells = cells(line);
                if (header == null) {
                    header = cells;
                }
                else if (!cells.stream().allMatch(cell -> cell.matches(":?-+:?")) && module(cells.get(0)) != null) {
                    problems.addAll(row(file + ":" + (i + 1), header, cells));
                    checked = true;
                }
            }
            else {
                header = null;
            }
            if (checked) {
                continue;
            }
            problems.addAll(prose(file + ":" + (i + 1), line));
        }
        return problems;
    }

    /** Figures in TPS, µs or × that are none of the run's. */
    private List<String> prose(String where, String text) {
        List<String> problems = new ArrayList<>();
        Matcher figure = PROSE.matcher(text);
        while (figure.find()) {
            String found = figure.group(1) + ("×".equals(figure.group(2)) ? "×" : " " + figure.group(2));
            if (!known.contains(found)) {
                problems.add("%s: %s is no figure of the reference run".formatted(where, found));
            }
        }
        return problems;
    }

    private List<String> row(String where, List<String> header, List<String> cells) {
        Map<String, Object> module = module(cells.get(0));
        if (module == null) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        for (int column = 1; column < Math.min(header.size(), cells.size()); column++) {
            String name = header.get(column).toLowerCase(Locale.ROOT);
            String title = header.get(column);
            String cell = cells.get(column);
            java.util.Optional<String> expected = java.util.Optional.empty();
            if (name.contains("x floor")) {
                expected = floor(module);
            }
            else if (name.contains("% of ceiling")) {
                expected = number(module.get("percentOfCeiling")).map(Format::percent);
            }
            else if (name.matches(".*\\bx (loop|" + Pattern.quote(reference) + ")\\b.*")) {
                expected = ratio(module);
            }
            else if (name.contains("cpu") && name.contains("µs")) {
                expected = cpuTotal(module);
            }
            else if (name.contains("tps")) {
                expected = tps(module);
            }
            else {
                problems.addAll(prose(where, cell));
            }
            expected.filter(text -> !Pattern.compile("(?<![\\d,.])" + Pattern.quote(text) + "(?![\\d,.])").matcher(cell).find())
                    .ifPresent(text -> problems.add("%s: %s's %s is %s in the reference run, not '%s'".formatted(where, module.get("module"),
                            title, text, cell)));
        }
        return problems;
    }

    /** The module a row's first cell names: {@code [template-mget](modules/template-mget)}, {@code **near-cache**}, ... */
    private Map<String, Object> module(String cell) {
        Matcher link = Pattern.compile("\\[([^\\]]+)\\]").matcher(cell);
        String name = (link.find() ? link.group(1) : cell).replaceAll("[`*]", "").trim();
        name = name.split("\\s")[0];
        return modules.get(name);
    }

    private static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.endsWith("|") && inner.length() > 1 ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }

    static java.util.Optional<String> tps(Map<String, Object> module) {
        return number(module.get("tpsMedian")).map(Format::grouped);
    }

    /** The row's median TPS over the reference row's, with one decimal: {@code 15.5×}. */
    static java.util.Optional<String> ratio(Map<String, Object> module) {
        return number(module.get("ratioToReference")).map(ratio -> String.format(Locale.ROOT, "%.1f×", ratio));
    }

    /** The row's CPU per request over its floor, as the report writes it: {@code 1.42}. */
    static java.util.Optional<String> floor(Map<String, Object> module) {
        return number(module.get("floorRatio")).map(Format::ratio);
    }

    @SuppressWarnings("unchecked")
    static java.util.Optional<String> cpuTotal(Map<String, Object> module) {
        Map<String, Object> cpu = (Map<String, Object>) module.get("cpu");
        return cpu == null ? java.util.Optional.empty() : median(cpu.get("totalMicros")).map(ReportView::micros);
    }

    @SuppressWarnings("unchecked")
    private static java.util.Optional<Double> median(Object spread) {
        return spread instanceof Map<?, ?> map ? number(((Map<String, Object>) map).get("median")) : java.util.Optional.empty();
    }

    private static java.util.Optional<Double> number(Object value) {
        return value instanceof Number number ? java.util.Optional.of(number.doubleValue()) : java.util.Optional.empty();
    }
}

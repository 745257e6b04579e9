package dev.colorbench.benchmark.report;

import java.util.List;
import java.util.Map;

/**
 * A scenario's part of the report: what it measured and how to read it, one table, its charts
 * (Chart.js configurations, drawn by the page as they are) and its figures for summary.json.
 *
 * @param problems what makes the run fail (errors where the scenario does not measure errors)
 */
public record Section(String id, String title, String intro, List<String> header, List<List<String>> rows, List<Chart> charts,
        List<String> notes, Object data, List<String> problems) {

    public Section {
        header = List.copyOf(header);
        rows = rows.stream().map(List::copyOf).toList();
        charts = List.copyOf(charts);
        notes = List.copyOf(notes);
        problems = List.copyOf(problems);
    }

    /** The same section, one note more at the end of its notes. */
    public Section withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(note);
        return new Section(id, title, intro, header, rows, charts, more, data, problems);
    }

    /** One chart: a title above it and the Chart.js configuration ({@code type}, {@code data}, {@code options}) that draws it. */
    public record Chart(String id, String title, Map<String, Object> config) {
    }
}

package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads JMeter's CSV results (default columns, header line). Fields holding a comma, a quote or
 * a line break are quoted, as JMeter writes failure messages, so the file is read character by
 * character rather than line by line.
 */
record ResultsFile(String header, List<Sample> samples) {

    static ResultsFile read(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            return parse(reader);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot read JMeter results " + file, ex);
        }
    }

    static ResultsFile parse(Reader reader) throws IOException {
        List<List<String>> records = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        StringBuilder line = new StringBuilder();
        boolean quoted = false;
        int c;
        while ((c = reader.read()) != -1) {
            char ch = (char) c;
            if (quoted) {
                line.append(ch);
                if (ch == '"') {
                    reader.mark(1);
                    int next = reader.read();
                    if (next == '"') {
                        field.append('"');
                        line.append('"');
                    }
                    else {
                        quoted = false;
                        if (next != -1) {
                            reader.reset();
                        }
                    }
                }
                else {
                    field.append(ch);
                }
            }
            else if (ch == '"' && field.isEmpty()) {
                quoted = true;
                line.append(ch);
            }
            else if (ch == ',') {
                fields.add(field.toString());
                field.setLength(0);
                line.append(ch);
            }
            else if (ch == '\n') {
                fields.add(field.toString());
                records.add(fields);
                lines.add(line.toString());
                fields = new ArrayList<>();
                field.setLength(0);
                line.setLength(0);
            }
            else if (ch != '\r') {
                field.append(ch);
                line.append(ch);
            }
        }
        if (!field.isEmpty() || !fields.isEmpty()) {
            fields.add(field.toString());
            records.add(fields);
            lines.add(line.toString());
        }
        if (records.isEmpty()) {
            return new ResultsFile("", List.of());
        }
        List<String> columns = records.get(0);
        int timestamp = column(columns, "timeStamp");
        int elapsed = column(columns, "elapsed");
        int label = column(columns, "label");
        int code = column(columns, "responseCode");
        int success = column(columns, "success");
        int failure = column(columns, "failureMessage");
        List<Sample> samples = new ArrayList<>(records.size());
        for (int i = 1; i < records.size(); i++) {
            List<String> record = records.get(i);
            if (record.size() < columns.size()) {
                continue; // a line cut short when JMeter was stopped
            }
            samples.add(new Sample(Long.parseLong(record.get(timestamp)), Long.parseLong(record.get(elapsed)), record.get(label),
                    Boolean.parseBoolean(record.get(success)), record.get(code), record.get(failure), lines.get(i)));
        }
        return new ResultsFile(lines.get(0), List.copyOf(samples));
    }

    private static int column(List<String> columns, String name) {
        int index = columns.indexOf(name);
        if (index < 0) {
            throw new IllegalStateException("JMeter results lack the column " + name + "; columns: " + columns);
        }
        return index;
    }
}

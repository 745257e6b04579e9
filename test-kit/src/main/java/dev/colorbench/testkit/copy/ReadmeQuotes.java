package dev.colorbench.testkit.copy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The code blocks of a README that quote files: a block whose fence follows a line {@code <!-- file: <path> -->}
 * (a Markdown comment, not shown) quotes the file at that path, relative to the copy's directory. A file's lines between
 * {@code colorbench: begin} and {@code colorbench: end} (the project's own build of the copy, such as its test
 * dependencies) are not what a user copies, and are left out of the quote.
 */
public final class ReadmeQuotes {

    private static final Pattern MARKER = Pattern.compile("^<!-- file: (\\S+) -->$");

    private static final Pattern FENCE = Pattern.compile("^```\\w*$");

    private ReadmeQuotes() {
    }

    /** The quoted path of each block, in the README's order, and the block's text (each line ending in a newline). */
    public static Map<String, String> of(String readme) {
        Map<String, String> quotes = new LinkedHashMap<>();
        List<String> lines = readme.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher marker = MARKER.matcher(lines.get(i).strip());
            if (!marker.matches()) {
                continue;
            }
            String path = marker.group(1);
            int fence = i + 1;
            while (fence < lines.size() && lines.get(fence).isBlank()) {
                fence++;
            }
            if (fence == lines.size() || !FENCE.matcher(lines.get(fence).strip()).matches()) {
                throw new IllegalArgumentException("the marker of " + path + " (line " + (i + 1) + ") is not followed by a code block");
            }
            StringBuilder block = new StringBuilder();
            int line = fence + 1;
            while (line < lines.size() && !lines.get(line).strip().equals("```")) {
                block.append(lines.get(line)).append('\n');
                line++;
            }
            if (line == lines.size()) {
                throw new IllegalArgumentException("the code block of " + path + " (line " + (fence + 1) + ") is not closed");
            }
            if (quotes.put(path, block.toString()) != null) {
                throw new IllegalArgumentException(path + " is quoted twice");
            }
            i = line;
        }
        return quotes;
    }

    /** What a user copies of {@code file}: its text without the project's own lines, each line ending in a newline. */
    public static String copied(String file) {
        StringBuilder copied = new StringBuilder();
        boolean own = false;
        for (String line : file.lines().toList()) {
            if (line.contains("colorbench: begin")) {
                own = true;
            }
            else if (line.contains("colorbench: end")) {
                own = false;
            }
            else if (!own) {
                copied.append(line).append('\n');
            }
        }
        return copied.toString();
    }

    /** The files of a copy a user must have: its pom and everything under src/main. */
    public static List<String> files(Path copy) {
        List<String> files = new ArrayList<>();
        files.add("pom.xml");
        try (var walk = Files.walk(copy.resolve("src/main"))) {
            walk.filter(Files::isRegularFile).map(file -> copy.relativize(file).toString().replace('\\', '/')).sorted().forEach(files::add);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return files;
    }
}

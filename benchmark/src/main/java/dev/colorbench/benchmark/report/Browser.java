package dev.colorbench.benchmark.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Headless Chromium, for what only a browser can tell of a page: whether its scripts ran and its charts drew, and a
 * picture of it. The page says so itself in attributes of its body (rendered, errors, blank and empty canvases), which
 * {@code --dump-dom} prints once its scripts have run. A screenshot is judged from outside instead: its pixels, and the
 * uncaught errors Chromium's own console log names.
 */
public final class Browser {

    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable");

    private final Path executable;

    private Browser(Path executable) {
        this.executable = executable;
    }

    /** The browser named by {@code CHROMIUM}, or the first of Chromium's usual names on the {@code PATH}. */
    public static Optional<Browser> find() {
        String named = System.getenv("CHROMIUM");
        if (named != null && !named.isBlank()) {
            return Optional.of(new Browser(Path.of(named)));
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return NAMES.stream().flatMap(name -> Stream.of(path.split(java.io.File.pathSeparator)).map(dir -> Path.of(dir, name)))
                .filter(Files::isExecutable).findFirst().map(Browser::new);
    }

    /** What the page said of its drawing once its scripts had run. */
    public record Drawing(boolean rendered, int canvases, List<String> blank, List<String> empty, String errors) {

        public boolean drewEverything() {
            return rendered && canvases > 0 && blank.isEmpty() && empty.isEmpty() && errors.isEmpty();
        }
    }

    public Drawing open(Path page) {
        String dom = run(page, List.of("--dump-dom"));
        Matcher body = Pattern.compile("<body([^>]*)>").matcher(dom);
        String attributes = body.find() ? body.group(1) : "";
        return new Drawing("yes".equals(attribute(attributes, "rendered")), parse(attribute(attributes, "canvases")),
                list(attribute(attributes, "blank")), list(attribute(attributes, "empty")), unescape(attribute(attributes, "errors")));
    }

    /**
     * A picture of the page, {@code width} x {@code height} CSS pixels at one device pixel each, so that the same page
     * gives the same pixels on any machine. Returns the uncaught script errors Chromium's console log named meanwhile.
     */
    public List<String> screenshot(Path page, Path png, int width, int height) {
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        Path file = png.toAbsolutePath();
        String log = run(page, List.of("--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=%d,%d".formatted(width, height),
                "--enable-logging=stderr", "--v=0", "--screenshot=" + file), true);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Chromium wrote no screenshot of " + page);
        }
        // the console's lines read: [...:INFO:CONSOLE:151] "Uncaught ReferenceError: x is not defined", source: file:///... (151)
        return log.lines().filter(line -> line.contains(":CONSOLE") && line.contains("\"Uncaught "))
                .map(line -> line.substring(line.indexOf("] ") + 2)).toList();
    }

    private String run(Path page, List<String> what) {
        return run(page, what, false);
    }

    /** What Chromium printed: its standard output, or with {@code log} its log (standard error) alone. */
    private String run(Path page, List<String> what, boolean log) {
        Path profile = null;
        Path stderr = null;
        try {
            profile = Files.createTempDirectory("colorbench-chromium");
            stderr = Files.createTempFile("colorbench-chromium", ".log");
            List<String> command = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--disable-quic", "--virtual-time-budget=10000", "--user-data-dir=" + profile));
            command.addAll(what);
            command.add(page.toAbsolutePath().toUri().toString());
            Process chromium = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
            byte[] out = chromium.getInputStream().readAllBytes();
            if (!chromium.waitFor(60, TimeUnit.SECONDS)) {
                chromium.destroyForcibly();
                throw new IllegalStateException("Chromium did not finish with " + page + " within 60 s");
            }
            return new String(log ? Files.readAllBytes(stderr) : out, StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        finally {
            if (stderr != null) {
                stderr.toFile().delete();
            }
            if (profile != null) {
                try (Stream<Path> files = Files.walk(profile)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
                }
                catch (IOException ignored) {
                    // a temporary profile left behind is harmless
                }
            }
        }
    }

    private static String attribute(String attributes, String name) {
        Matcher value = Pattern.compile("data-" + name + "=\"([^\"]*)\"").matcher(attributes);
        return value.find() ? value.group(1) : "";
    }

    private static int parse(String number) {
        return number.isEmpty() ? 0 : Integer.parseInt(number);
    }

    private static List<String> list(String value) {
        return value.isEmpty() ? List.of() : List.of(value.split(","));
    }

    private static String unescape(String value) {
        return value.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }
}

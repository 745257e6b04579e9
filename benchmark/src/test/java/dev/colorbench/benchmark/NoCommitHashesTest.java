package dev.colorbench.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Code and the pages that describe it say what is true now, and git keeps the history: a commit hash is evidence
 * nobody can read from the page. So no commit hash appears in any module's {@code src/main}, in a module's README or
 * in {@code docs/}. The exceptions are the README's naming of the reference run's commit, which
 * {@code docs/results/summary.json} holds, the servers page's naming of its run's ({@code docs/results/servers/}), and the
 * scenario, workload, fleet and measuring pages' naming of the runs they quote ({@code docs/results/values/} and the like). The published run's own files ({@code docs/results.md},
 * {@code docs/results/}) name it too and are not scanned. Git is not asked: a CI clone may be shallow.
 */
class NoCommitHashesTest {

    private static final Path REPOSITORY = Path.of("..");

    /**
     * What looks like a commit hash: 7 to 40 lowercase hex characters as a whole word, with at least one digit and one
     * letter. A {@code #} before it makes it a colour or an issue, a word character (as in {@code 0x}) a literal.
     */
    private static final Pattern HEX_WORD = Pattern.compile("(?<![#\\w])[0-9a-f]{7,40}(?!\\w)");

    private static final Pattern DIGIT = Pattern.compile("[0-9]");

    private static final Pattern LETTER = Pattern.compile("[a-f]");

    private static final List<String> MODULE_READMES = List.of("color-core/README.md", "test-kit/README.md",
            "benchmark/README.md", "jmeter/README.md");

    @Test
    void noCodeOrPageNamesACommit() throws IOException {
        Set<String> referenceRun = Set.copyOf(hashes(referenceCommit()));
        Set<String> serversRun = Set.copyOf(hashes(publishedCommit("docs/results/servers/summary.json")));
        // the pages that quote a published scenario or workload run name its commit inside the quote (PublishedResultsTest)
        Set<String> quotedRuns = new java.util.HashSet<>();
        for (String run : List.of("values", "workload", "cluster", "concurrency", "distance", "variants", "copies", "repeat", "elsewhere", "halved")) {
            quotedRuns.addAll(hashes(publishedCommit("docs/results/" + run + "/summary.json")));
        }
        // and the fleet page quotes the reference run's own fleet table; a module's README may quote a scenario's run
        quotedRuns.addAll(referenceRun);
        List<String> quoting = List.of("docs/scenarios.md", "docs/workload.md", "docs/fleet.md", "docs/measuring.md");
        List<String> found = new ArrayList<>();
        for (Path file : scanned()) {
            String name = REPOSITORY.relativize(file).toString().replace('\\', '/');
            byte[] bytes = Files.readAllBytes(file);
            if (binary(bytes)) {
                continue;
            }
            String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                for (String hash : hashes(lines[i])) {
                    if (!(name.equals("README.md") && referenceRun.contains(hash) || name.equals("docs/servers.md") && serversRun.contains(hash)
                            || (quoting.contains(name) || name.matches("modules/[a-z-]+/README\\.md")) && quotedRuns.contains(hash))) {
                        found.add(name + ":" + (i + 1) + ": " + hash);
                    }
                }
            }
        }
        assertThat(found).as("commit hashes: say why in the present and link the doc section with the evidence").isEmpty();
    }

    @Test
    void aHashIsHexWithADigitAndALetterAsAWholeWord() {
        assertThat(hashes("at 1a2b3c4, 20/60 and 90 s together")).containsExactly("1a2b3c4");
        assertThat(hashes("(9f8e7d6) and 5c4b3a2.")).containsExactly("9f8e7d6", "5c4b3a2");
        assertThat(hashes("3c1d2e4f5a6b-dirty")).containsExactly("3c1d2e4f5a6b");
        assertThat(hashes("a full hash 0123456789abcdef0123456789abcdef01234567")).hasSize(1);

        assertThat(hashes("color: #f0f8ff; see lettuce#2773")).as("a colour or an issue").isEmpty();
        assertThat(hashes("0x1f2e3d4c and abc1234def_x")).as("a literal, part of a word").isEmpty();
        assertThat(hashes("deadbeef, faded, accede")).as("words need a digit").isEmpty();
        assertThat(hashes("1234567 requests, 73530")).as("numbers need a letter").isEmpty();
        assertThat(hashes("1A2B3C4 and 123abc")).as("uppercase, or shorter than 7").isEmpty();
        assertThat(hashes("0123456789abcdef0123456789abcdef012345678")).as("longer than 40").isEmpty();
    }

    static List<String> hashes(String line) {
        List<String> hashes = new ArrayList<>();
        Matcher matcher = HEX_WORD.matcher(line);
        while (matcher.find()) {
            String token = matcher.group();
            if (DIGIT.matcher(token).find() && LETTER.matcher(token).find()) {
                hashes.add(token);
            }
        }
        return hashes;
    }

    /** Every file under a module's src/main, every module's README, docs/*.md but the results page, and the README. */
    private static List<Path> scanned() throws IOException {
        List<Path> files = new ArrayList<>();
        List<Path> modules = new ArrayList<>(children(REPOSITORY));
        modules.addAll(children(REPOSITORY.resolve("modules")));
        for (Path module : modules) {
            Path main = module.resolve("src/main");
            if (Files.isDirectory(main)) {
                try (Stream<Path> tree = Files.walk(main)) {
                    tree.filter(Files::isRegularFile).sorted().forEach(files::add);
                }
            }
            if (module.getParent().endsWith("modules") && Files.isRegularFile(module.resolve("README.md"))) {
                files.add(module.resolve("README.md"));
            }
        }
        MODULE_READMES.stream().map(REPOSITORY::resolve).filter(Files::isRegularFile).forEach(files::add);
        try (Stream<Path> docs = Files.list(REPOSITORY.resolve("docs"))) {
            docs.filter(Files::isRegularFile).filter(page -> page.toString().endsWith(".md"))
                    .filter(page -> !page.getFileName().toString().equals("results.md")).sorted().forEach(files::add);
        }
        files.add(REPOSITORY.resolve("README.md"));
        return files;
    }

    private static List<Path> children(Path folder) throws IOException {
        try (Stream<Path> children = Files.list(folder)) {
            return children.filter(Files::isDirectory).sorted().toList();
        }
    }

    /** The reference run's commit, which the README names; empty when no run is published. */
    private static String referenceCommit() throws IOException {
        return publishedCommit("docs/results/summary.json");
    }

    @SuppressWarnings("unchecked")
    private static String publishedCommit(String file) throws IOException {
        Path summary = REPOSITORY.resolve(file);
        if (!Files.isRegularFile(summary)) {
            return "";
        }
        Map<String, Object> environment = (Map<String, Object>) Json.MAPPER.readValue(summary.toFile(), Map.class).get("environment");
        return environment == null ? "" : String.valueOf(environment.get("gitCommit"));
    }

    private static boolean binary(byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                return true;
            }
        }
        return false;
    }
}

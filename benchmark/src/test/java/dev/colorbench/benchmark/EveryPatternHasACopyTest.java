package dev.colorbench.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.testkit.copy.ReadmeQuotes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every pattern has the standalone copy its README shows, in the build, without this project's core or test kit: what a
 * user copies compiles and runs on its own (docs/adding-a-pattern.md). The near cache's copy depends on the near-cache
 * library, which a user installs. The ceiling is no pattern to copy.
 */
class EveryPatternHasACopyTest {

    private static final Path ROOT = Path.of("..");

    private static List<PatternModule> patterns() {
        return ModuleCatalog.read(ROOT).modules().stream().filter(module -> module.role() != Role.CEILING).toList();
    }

    @Test
    void theBuildBuildsEveryPatternsCopy() throws IOException {
        String rootPom = Files.readString(ROOT.resolve("pom.xml"));
        for (PatternModule module : patterns()) {
            assertThat(ROOT.resolve("modules/" + module.id() + "/copy/pom.xml")).as(module.id() + "'s copy").isRegularFile();
            assertThat(rootPom).as("the root pom's modules").contains("<module>modules/" + module.id() + "/copy</module>");
        }
    }

    /** ./mvnw jmeter:jmeter runs in every project of the build: each copy names the plugin, at the build's version, to skip it. */
    @Test
    void everyCopyKnowsTheJMeterPluginAtTheBuildsVersion() throws IOException {
        Matcher version = Pattern.compile("<jmeter-maven-plugin.version>([^<]+)</jmeter-maven-plugin.version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(version.find()).as("jmeter-maven-plugin.version in the root pom").isTrue();
        for (PatternModule module : patterns()) {
            assertThat(Files.readString(ROOT.resolve("modules/" + module.id() + "/copy/pom.xml"))).as(module.id() + "'s copy's pom")
                    .contains("<artifactId>jmeter-maven-plugin</artifactId>\n          <version>" + version.group(1) + "</version>");
        }
    }

    @Test
    void noCopyUsesThisProjectsCode() throws IOException {
        for (PatternModule module : patterns()) {
            Path copy = ROOT.resolve("modules/" + module.id() + "/copy");
            assertThat(ReadmeQuotes.copied(Files.readString(copy.resolve("pom.xml")))).as(module.id() + "'s copy's pom, beyond its colorbench lines")
                    .doesNotContain("<artifactId>color-core</artifactId>").doesNotContain("<artifactId>test-kit</artifactId>");
            try (var files = Files.walk(copy.resolve("src/main"))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertThat(Files.readString(file)).as(file.toString()).doesNotContain("dev.colorbench.core").doesNotContain("dev.colorbench.testkit");
                }
            }
        }
    }
}

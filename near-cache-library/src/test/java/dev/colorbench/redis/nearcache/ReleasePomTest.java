package dev.colorbench.redis.nearcache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The library's pom has Spring Boot's parent, not the project's, and repeats what the root pom gave
 * it: this keeps the two on one Spring Boot, one Netty and one JMeter plugin (and the sample that CI
 * builds against the release on that Spring Boot), so that the library is built and tested on what
 * the project runs.
 */
class ReleasePomTest {

    @Test
    void theLibraryAndTheSampleAreOnTheRootPomsVersions() throws IOException {
        String root = Files.readString(Path.of("../pom.xml"));
        String library = Files.readString(Path.of("pom.xml"));
        String sample = Files.readString(Path.of("sample/pom.xml"));

        String boot = "<artifactId>spring-boot-starter-parent</artifactId>\n    <version>" + value(root, "<artifactId>spring-boot-starter-parent</artifactId>\\s*<version>([^<]+)</version>") + "</version>";
        assertThat(library).contains(boot);
        assertThat(sample).contains(boot);
        assertThat(library).contains("<netty.version>" + value(root, "<netty.version>([^<]+)</netty.version>") + "</netty.version>");
        assertThat(library).contains("<artifactId>jmeter-maven-plugin</artifactId>\n          <version>"
                + value(root, "<jmeter-maven-plugin.version>([^<]+)</jmeter-maven-plugin.version>") + "</version>");
        assertThat(library).contains("<colorbench.test-kit.version>" + value(root, "<artifactId>colorbench-parent</artifactId>\\s*<version>([^<]+)</version>")
                + "</colorbench.test-kit.version>");
        assertThat(root).contains("<near-cache.version>" + value(library, "(?m)^  <version>([^<]+)</version>") + "</near-cache.version>");
    }

    private static String value(String pom, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(pom);
        assertThat(matcher.find()).as(regex).isTrue();
        return matcher.group(1);
    }
}

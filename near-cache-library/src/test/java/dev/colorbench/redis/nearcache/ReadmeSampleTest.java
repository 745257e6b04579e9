package dev.colorbench.redis.nearcache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample that CI builds against the deployed release (sample/ci.sh) is the README's
 * {@code @Cacheable} application, word for word, and the README, the sample and the pom name one
 * version: so that what CI checks is what a reader copies.
 */
class ReadmeSampleTest {

    private static final Path SAMPLE = Path.of("sample/src/main");

    @Test
    void theSampleIsTheReadmesApplication() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        List<String> classes = new ArrayList<>();
        Matcher java = Pattern.compile("```java\n(package com\\.example\\.items;.*?)```", Pattern.DOTALL).matcher(readme);
        while (java.find()) {
            Matcher name = Pattern.compile("public (?:class|record) (\\w+)").matcher(java.group(1));
            assertThat(name.find()).as("a public type in %s", java.group(1)).isTrue();
            classes.add(name.group(1));
            assertThat(SAMPLE.resolve("java/com/example/items/" + name.group(1) + ".java")).hasContent(java.group(1));
        }
        assertThat(classes).containsExactlyInAnyOrder("ItemsApplication", "Item", "ItemService");

        Matcher yaml = Pattern.compile("```yaml\n(spring:\n.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(yaml.find()).isTrue();
        assertThat(Files.readString(SAMPLE.resolve("resources/application.yaml"))).contains(yaml.group(1));
    }

    @Test
    void theReadmeAndTheSampleNameThisVersion() throws IOException {
        Matcher own = Pattern.compile("^  <version>(.+)</version>", Pattern.MULTILINE).matcher(Files.readString(Path.of("pom.xml")));
        assertThat(own.find()).isTrue();
        String dependency = "<artifactId>redis-near-cache</artifactId>\n  <version>" + own.group(1) + "</version>";

        String readme = Files.readString(Path.of("README.md"));
        assertThat(readme.split("<artifactId>redis-near-cache</artifactId>", -1)).hasSize(3);
        assertThat(readme.split(Pattern.quote(dependency), -1)).as("the README's dependencies on %s", own.group(1)).hasSize(3);
        assertThat(Files.readString(Path.of("sample/pom.xml")).replaceAll("\n\\s*", "\n  ")).contains(dependency);
        assertThat(Files.readString(Path.of("CHANGELOG.md"))).contains("## " + own.group(1) + "\n");
    }
}

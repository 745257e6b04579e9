package dev.colorbench.testkit.copy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ReadmeQuotesTest {

    private static final String README = """
            # a module

            <!-- file: src/main/java/A.java -->
            ```java
            class A {
            }
            ```

            Some prose, and an unmarked block, which quotes nothing:

            ```yaml
            a: 1
            ```

            <!-- file: pom.xml -->

            ```xml
            <project>
            </project>
            ```
            """;

    @Test
    void aMarkedBlockQuotesTheFileItNamesAndAnUnmarkedOneNothing() {
        assertThat(ReadmeQuotes.of(README)).containsExactly(
                org.assertj.core.api.Assertions.entry("src/main/java/A.java", "class A {\n}\n"),
                org.assertj.core.api.Assertions.entry("pom.xml", "<project>\n</project>\n"));
    }

    @Test
    void theProjectsOwnLinesAreNotWhatAUserCopies() {
        String pom = """
                <dependencies>
                  <!-- colorbench: begin: this project's test of the copy -->
                  <dependency>test-kit</dependency>
                  <!-- colorbench: end -->
                </dependencies>""";

        assertThat(ReadmeQuotes.copied(pom)).isEqualTo("<dependencies>\n</dependencies>\n");
    }

    @Test
    void aMarkerWithoutABlockOrABlockNeverClosedIsAnError() {
        assertThatIllegalArgumentException().isThrownBy(() -> ReadmeQuotes.of("<!-- file: a -->\nprose\n"));
        assertThatIllegalArgumentException().isThrownBy(() -> ReadmeQuotes.of("<!-- file: a -->\n```java\nclass A {}\n"));
        assertThatIllegalArgumentException().isThrownBy(
                () -> ReadmeQuotes.of("<!-- file: a -->\n```\nx\n```\n<!-- file: a -->\n```\nx\n```\n"));
    }
}

package dev.colorbench.testkit.copy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module's README shows the copy as it is: every code block marked {@code <!-- file: <path> -->} is that file of the
 * copy, and every file a user needs (the pom and all of src/main) is shown. The copy's build runs this from the copy's
 * directory, {@code modules/<module>/copy}, whose parent holds the README. Each copy has a one-line subclass.
 */
public abstract class ReadmeQuotesTheCopyTest {

    private final Path copy = Path.of("").toAbsolutePath();

    private Map<String, String> quotes() throws IOException {
        return ReadmeQuotes.of(Files.readString(copy.resolveSibling("README.md")));
    }

    @Test
    void everyQuotedBlockIsTheFileItNames() throws IOException {
        for (Map.Entry<String, String> quote : quotes().entrySet()) {
            Path file = copy.resolve(quote.getKey());
            assertThat(file).as("the README quotes %s, which the copy does not have", quote.getKey()).isRegularFile();
            assertThat(quote.getValue()).as("the README's block of %s against the file (the README is to change with it)", quote.getKey())
                    .isEqualTo(ReadmeQuotes.copied(Files.readString(file)));
        }
    }

    @Test
    void theReadmeShowsEveryFileAUserNeeds() throws IOException {
        assertThat(quotes().keySet()).as("the files the README quotes").containsAll(ReadmeQuotes.files(copy));
    }
}

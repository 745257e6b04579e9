package dev.colorbench.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The table of patterns (docs/patterns.md) lists exactly the modules of the build, in their order, each with its port and stack. */
class ReadmeModuleTableTest {

    private static final Pattern ROW = Pattern.compile("^\\| \\[([a-z-]+)]\\(\\.\\./modules/([a-z-]+)\\) \\| (\\d+) \\| (\\w+) \\|");

    @Test
    void thePatternsPageListsEveryModuleWithItsPortAndStack() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("../docs/patterns.md"));
        int table = lines.indexOf("# The patterns");
        assertThat(table).as("a title '# The patterns' in docs/patterns.md").isNotNegative();
        List<String> rows = new ArrayList<>();
        for (String line : lines.subList(table + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                assertThat(row.group(2)).as("link of " + row.group(1)).isEqualTo(row.group(1));
                rows.add(row.group(1) + " " + row.group(3) + " " + row.group(4));
            }
        }

        assertThat(rows).containsExactlyElementsOf(ModuleCatalog.read(Path.of("..")).modules().stream()
                .map(module -> module.id() + " " + module.port() + " " + module.stack()).toList());
    }

    @Test
    void everyModuleHasAReadme() {
        for (PatternModule module : ModuleCatalog.read(Path.of("..")).modules()) {
            assertThat(Path.of("../modules", module.id(), "README.md")).as(module.id()).isRegularFile();
        }
    }
}

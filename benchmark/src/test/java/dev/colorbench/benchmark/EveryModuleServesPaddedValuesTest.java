package dev.colorbench.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.PatternModule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every module runs the test kit's padded-values contract, so that the values scenario and the workload run measure each
 * module on the palette it was started with, byte for byte (docs/adding-a-pattern.md). The contract itself runs in a JVM
 * of its own, in the parent pom's {@code padded-values} execution.
 */
class EveryModuleServesPaddedValuesTest {

    private static final Path ROOT = Path.of("..");

    @Test
    void everyModuleSubclassesThePaddedValuesContract() throws IOException {
        for (PatternModule module : ModuleCatalog.read(ROOT).modules()) {
            try (var files = Files.walk(ROOT.resolve("modules/" + module.id() + "/src/test/java"))) {
                List<Path> padded = files.filter(file -> file.getFileName().toString().endsWith("PaddedValuesTest.java")).toList();
                assertThat(padded).as(module.id() + "'s *PaddedValuesTest").hasSize(1);
                assertThat(Files.readString(padded.get(0))).as(padded.get(0).toString()).contains("extends PaddedValuesContractTest");
            }
        }
    }
}

package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A finished run keeps its report and every sample, compressed, and not the module jars it copied. */
class RunDirectoryTest {

    @Test
    void compactingKeepsEverySampleGzippedDropsTheJarsAndLeavesSmallFilesAsTheyAre(@TempDir Path folder) throws IOException {
        RunDirectory run = RunDirectory.fresh(folder.resolve("benchmark"));
        Files.createDirectories(run.jars());
        Files.write(run.jars().resolve("template-mget.jar"), new byte[1024]);
        String sample = "1764170000000,3,template-mget throughput 1,200,OK,true\n";
        Path samples = Files.createDirectories(run.target("template-mget")).resolve("results.csv");
        Files.writeString(samples, sample.repeat((int) (RunDirectory.COMPRESSED_FROM_BYTES / sample.length()) + 1));
        RunDirectory.write(run.file("logs/template-mget.log"), "started\n");
        RunDirectory.write(run.file("summary.json"), "{}");

        run.compact();

        assertThat(run.jars()).doesNotExist();
        assertThat(samples).doesNotExist();
        Path gz = samples.resolveSibling("results.csv.gz");
        assertThat(Files.size(gz)).isLessThan(RunDirectory.COMPRESSED_FROM_BYTES / 10);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            String back = new String(in.readAllBytes());
            assertThat(back).startsWith(sample).hasSize((int) ((RunDirectory.COMPRESSED_FROM_BYTES / sample.length()) + 1) * sample.length());
        }
        assertThat(run.file("logs/template-mget.log")).hasContent("started");
        assertThat(run.file("summary.json")).hasContent("{}");
    }
}

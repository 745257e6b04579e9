package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.util.FileSystemUtils;

/**
 * Where one run keeps what it makes ({@code benchmark/target/benchmark/}): what the reader opens
 * (the report, its data, each module's samples and JMeter dashboard) and what explains it (the
 * plan that ran, JMeter's raw results and log, each module's log). Emptied when a run starts.
 */
public record RunDirectory(Path root) {

    public static RunDirectory fresh(Path root) {
        try {
            FileSystemUtils.deleteRecursively(root);
            Files.createDirectories(root);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot empty " + root, ex);
        }
        return new RunDirectory(root);
    }

    /** Copies of the module jars the run starts, so a rebuild during the run cannot replace a jar under a running JVM. */
    public Path jars() {
        return root.resolve("jars");
    }

    public Path logs() {
        return root.resolve("logs");
    }

    /** The generated plan and the files it reads. */
    public Path plans() {
        return root.resolve("plans");
    }

    /** Every sample JMeter recorded, warm-up and readings included. */
    public Path results() {
        return root.resolve("results-all.csv");
    }

    /** One row of the comparison: its measured samples and JMeter's dashboard of them. */
    public Path target(String id) {
        return root.resolve(id);
    }

    /** A folder of its own for one part of the run (a scenario, one of its conditions), created empty. */
    public RunDirectory sub(String name) {
        return fresh(root.resolve(name));
    }

    public Path file(String name) {
        return root.resolve(name);
    }

    /** Writes a file of the run, creating its folder. */
    public static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot write " + file, ex);
        }
    }
}

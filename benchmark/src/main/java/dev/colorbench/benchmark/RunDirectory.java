package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

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

    /** Files from this size on are compressed by {@link #compact()}: the samples and JMeter's logs, not a module's log. */
    static final long COMPRESSED_FROM_BYTES = 4L << 20;

    /**
     * What a finished run keeps: the report, its data and every sample, compressed. The module jars the run copied go,
     * and every CSV and log of at least {@link #COMPRESSED_FROM_BYTES} is gzipped in place ({@code zcat}, or any CSV
     * reader that takes gzip, reads it). A full run then keeps tens of megabytes, not over a gigabyte.
     */
    public void compact() {
        try {
            FileSystemUtils.deleteRecursively(jars());
            List<Path> large;
            try (Stream<Path> files = Files.walk(root)) {
                large = files.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(".csv") || file.toString().endsWith(".log"))
                        .filter(file -> file.toFile().length() >= COMPRESSED_FROM_BYTES).toList();
            }
            for (Path file : large) {
                gzip(file);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot compact " + root, ex);
        }
    }

    /** {@code file} as {@code file.gz}, at the fastest level: the samples compress about tenfold even so. */
    static void gzip(Path file) throws IOException {
        Path gz = file.resolveSibling(file.getFileName() + ".gz");
        try (var out = new GZIPOutputStream(Files.newOutputStream(gz), 1 << 16) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        }) {
            Files.copy(file, out);
        }
        Files.delete(file);
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

package dev.colorbench.benchmark.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Workload;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;

/**
 * One set of circumstances a measurement runs in: which rows, with which knobs, and what differs
 * from the plain loopback run.
 *
 * @param name what it is called in folders and reports, e.g. {@code headline}, {@code rtt-1ms}
 * @param redisRoundTrip a round trip added between the modules and Redis (through a
 *        {@link dev.colorbench.testkit.DelayProxy}), or {@code null} for the direct path
 * @param paletteSize how many colors every module serves, or {@code null} for the 148 of CSS
 * @param valueBytes the size every stored color is padded to, or {@code null} for each color's own JSON
 * @param moduleJavaHome the JDK the modules run on, or {@code null} for the one running the benchmark
 */
public record Condition(String name, BenchmarkSettings settings, List<Target> targets, Duration redisRoundTrip, Integer paletteSize,
        Integer valueBytes, Path moduleJavaHome) {

    public Condition {
        targets = List.copyOf(targets);
    }

    /** The plain run: every row on loopback, as configured. */
    public static Condition plain(String name, BenchmarkSettings settings, List<Target> targets) {
        return new Condition(name, settings, targets, null, null, null, settings.moduleJavaHome());
    }

    public Condition withRedisRoundTrip(Duration added) {
        return new Condition(name, settings, targets, added, paletteSize, valueBytes, moduleJavaHome);
    }

    /** What {@code GET /colors} must answer in this condition, byte for byte. */
    public String expectedPalette() {
        return paletteSize == null && valueBytes == null ? ColorJson.palette() : ColorJson.of(palette());
    }

    /** The colors every module serves in this condition, in order, each as the modules store it. */
    public List<Color> palette() {
        return paletteSize == null && valueBytes == null ? Palette.all() : Palette.of(paletteSize == null ? Palette.NAMED : paletteSize, valueBytes);
    }

    /** True when the modules serve another palette than the benchmark's own: 148 colors, each its own JSON. */
    public boolean otherPalette() {
        return paletteSize != null || valueBytes != null;
    }

    public Condition withPaletteSize(int size) {
        return new Condition(name, settings, targets, redisRoundTrip, size, valueBytes, moduleJavaHome);
    }

    public Condition withValueBytes(int bytes) {
        return new Condition(name, settings, targets, redisRoundTrip, paletteSize, bytes, moduleJavaHome);
    }

    /** This condition under {@code workload}: its keys, value size and distance to Redis, each where given. */
    public Condition under(Workload workload) {
        return new Condition(name, settings, targets, workload.redisRoundTrip() == null ? redisRoundTrip : workload.redisRoundTrip(),
                workload.keys() == null ? paletteSize : workload.keys(), workload.valueBytes() == null ? valueBytes : workload.valueBytes(),
                moduleJavaHome);
    }
}

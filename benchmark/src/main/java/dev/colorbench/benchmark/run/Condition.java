package dev.colorbench.benchmark.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.modules.Target;
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
 * @param moduleJavaHome the JDK the modules run on, or {@code null} for the one running the benchmark
 */
public record Condition(String name, BenchmarkSettings settings, List<Target> targets, Duration redisRoundTrip, Integer paletteSize,
        Path moduleJavaHome) {

    public Condition {
        targets = List.copyOf(targets);
    }

    /** The plain run: every row on loopback, as configured. */
    public static Condition plain(String name, BenchmarkSettings settings, List<Target> targets) {
        return new Condition(name, settings, targets, null, null, settings.moduleJavaHome());
    }

    public Condition withRedisRoundTrip(Duration added) {
        return new Condition(name, settings, targets, added, paletteSize, moduleJavaHome);
    }

    /** What {@code GET /colors} must answer in this condition, byte for byte. */
    public String expectedPalette() {
        return paletteSize == null ? ColorJson.palette() : ColorJson.of(Palette.sized(paletteSize));
    }

    public Condition withPaletteSize(int size) {
        return new Condition(name, settings, targets, redisRoundTrip, size, moduleJavaHome);
    }
}

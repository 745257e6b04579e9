package dev.colorbench.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.core.palette.Palette;

/**
 * A user's own workload, which the {@code workload} run measures the headline under: how many keys one request reads, how
 * large each stored value is, and how much further away Redis is than loopback. Each is {@code null} where not given:
 * then the headline's own (the 148 colors, each its own JSON of 59 to 80 bytes, Redis on loopback). Checked when read,
 * so that a bad value stops the run before any module starts, with the range it must lie in (docs/workload.md).
 *
 * @param keys colors one {@code GET /colors} reads ({@code benchmark.keys})
 * @param valueBytes bytes of each stored color ({@code benchmark.valueBytes})
 * @param redisRoundTrip added to every round trip between the modules and Redis ({@code benchmark.redisRoundTrip})
 */
public record Workload(Integer keys, Integer valueBytes, Duration redisRoundTrip) {

    /** The scenario name that measures the headline under a workload. */
    public static final String SCENARIO = "workload";

    /** The most added round trip: beyond it a loop of hundreds of round trips outlasts every time-out of the plan. */
    public static final Duration MAX_ROUND_TRIP = Duration.ofMillis(50);

    private static final Pattern DURATION = Pattern.compile("(-?\\d+(?:\\.\\d+)?)\\s*(ms|us|µs|s)?");

    public Workload {
        if (keys != null || valueBytes != null) {
            check(keys == null ? Palette.NAMED : keys, valueBytes);
        }
        if (redisRoundTrip != null && (redisRoundTrip.isNegative() || redisRoundTrip.compareTo(MAX_ROUND_TRIP) > 0)) {
            throw new IllegalArgumentException("benchmark.redisRoundTrip=%s is out of range: 0 to %d ms added to every round trip to Redis"
                    .formatted(Format.asked(redisRoundTrip.toNanos() / 1e6) + "ms", MAX_ROUND_TRIP.toMillis()));
        }
    }

    /**
     * The workload of {@code benchmark.keys}, {@code benchmark.valueBytes} and {@code benchmark.redisRoundTrip} (empty: not given),
     * refused where it would be ignored: they describe the {@code workload} run only.
     */
    static Workload of(String keys, String valueBytes, String redisRoundTrip, List<String> scenarios) {
        Workload workload = new Workload(number("keys", keys, "keys"), number("valueBytes", valueBytes, "bytes"), roundTrip(redisRoundTrip));
        if (!workload.isDefault() && !scenarios.contains(SCENARIO)) {
            throw new IllegalArgumentException("benchmark.keys, benchmark.valueBytes and benchmark.redisRoundTrip describe the workload run: "
                    + "add -Dbenchmark.scenario=workload (docs/workload.md)");
        }
        return workload;
    }

    /** True when nothing was given: the headline's own conditions. */
    public boolean isDefault() {
        return keys == null && valueBytes == null && redisRoundTrip == null;
    }

    /** {@code 400 keys of 2,048 bytes, Redis 1 ms further away}; the headline's own where a knob was not given. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        parts.add("%s keys".formatted(Format.grouped(keys == null ? Palette.NAMED : keys)));
        parts.add(valueBytes == null ? "each value its color's own JSON (59 to 80 bytes)" : "%s bytes a value".formatted(Format.grouped(valueBytes)));
        parts.add(redisRoundTrip == null || redisRoundTrip.isZero() ? "Redis on loopback"
                : "Redis %s ms further away".formatted(Format.asked(redisRoundTrip.toNanos() / 1e6)));
        return String.join(", ", parts);
    }

    /**
     * Refuses a palette the modules cannot serve, naming the range in the run's own property names: 1 to {@link Palette#MAX_SIZE}
     * keys, {@link Palette#MIN_VALUE_BYTES} to {@link Palette#MAX_VALUE_BYTES} bytes a value, at most {@link Palette#MAX_PALETTE_BYTES}
     * for one answer's stored values.
     */
    static void check(int keys, Integer valueBytes) {
        if (keys < 1 || keys > Palette.MAX_SIZE) {
            throw new IllegalArgumentException("benchmark.keys=%s is out of range: 1 to %s keys (the 148 named colors, then generated ones)"
                    .formatted(Format.grouped(keys), Format.grouped(Palette.MAX_SIZE)));
        }
        if (valueBytes == null) {
            return;
        }
        if (valueBytes < Palette.MIN_VALUE_BYTES || valueBytes > Palette.MAX_VALUE_BYTES) {
            throw new IllegalArgumentException(("benchmark.valueBytes=%s is out of range: %s to %s bytes a value "
                    + "(unset: each color's own JSON, 59 to 80 bytes)").formatted(Format.grouped(valueBytes),
                            Format.grouped(Palette.MIN_VALUE_BYTES), Format.grouped(Palette.MAX_VALUE_BYTES)));
        }
        if ((long) keys * valueBytes > Palette.MAX_PALETTE_BYTES) {
            long most = Palette.MAX_PALETTE_BYTES / keys;
            throw new IllegalArgumentException(("benchmark.keys=%s of benchmark.valueBytes=%s is %s MiB an answer, past the %s MiB one answer may hold: "
                    + "%s").formatted(Format.grouped(keys), Format.grouped(valueBytes), Format.grouped((long) keys * valueBytes / (1024 * 1024)),
                            Format.grouped(Palette.MAX_PALETTE_BYTES / (1024 * 1024)), most >= Palette.MIN_VALUE_BYTES
                                    ? "with %s keys, values of at most %s bytes".formatted(Format.grouped(keys), Format.grouped(most))
                                    : "at most %s keys of %s bytes".formatted(Format.grouped(Palette.MAX_PALETTE_BYTES / valueBytes), Format.grouped(valueBytes))));
        }
    }

    private static Integer number(String name, String given, String unit) {
        if (given.isEmpty()) {
            return null;
        }
        try {
            return Integer.valueOf(given.replace("_", "").replace(",", ""));
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException("benchmark.%s=%s is not a whole number of %s".formatted(name, given, unit));
        }
    }

    /** {@code 1ms}, {@code 0.5ms}, {@code 250us}, {@code 0}; a number alone is milliseconds. */
    static Duration roundTrip(String given) {
        if (given.isEmpty()) {
            return null;
        }
        Matcher matcher = DURATION.matcher(given.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new IllegalArgumentException("benchmark.redisRoundTrip=%s is not a duration: write it like 1ms, 0.25ms or 250us".formatted(given));
        }
        double value = Double.parseDouble(matcher.group(1));
        String unit = matcher.group(2) == null ? "ms" : matcher.group(2);
        double nanos = switch (unit) {
            case "s" -> value * 1e9;
            case "us", "µs" -> value * 1e3;
            default -> value * 1e6;
        };
        return Duration.ofNanos(Math.round(nanos));
    }
}

package dev.colorbench.benchmark.run;

import java.util.Optional;

import dev.colorbench.benchmark.results.FloorReading;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.testkit.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The harness's own measurement of the floor's Redis work, against a real Redis: what it writes, measures and leaves behind. */
class RedisFloorTest {

    @Test
    void measuresAGetOfThePaletteAndAnMgetOfItsKeysThenDeletesItsKeysAndNoOther() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); RedisClient client = RedisClient.create(redis.url());
                StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> commands = connection.sync();
            // a module's key and a key of someone else's: the floor's keys are its own, and it touches no other
            commands.set("colors::v3::red", "{}");
            commands.set("not-ours", "kept");
            RedisFloor floor = new RedisFloor(redis.url(), Palette.all(), 4, 0, 0.5);

            FloorReading reading = floor.measure(3, () -> cpu(commands));

            assertThat(reading.round()).isEqualTo(3);
            assertThat(reading.get().commands()).isPositive();
            assertThat(reading.mget().commands()).isPositive();
            assertThat(reading.get().microsPerCommand()).isPositive();
            assertThat(reading.mget().microsPerCommand()).isPositive();
            assertThat(reading.leastMicros()).isEqualTo(Math.min(reading.get().microsPerCommand(), reading.mget().microsPerCommand()));
            // the bytes a module stores: the palette's JSON as one value, each color's JSON under its own key
            assertThat(commands.get(RedisFloor.PALETTE_KEY)).isEqualTo(ColorJson.palette());
            assertThat(commands.get(RedisFloor.PREFIX + "red")).isEqualTo(ColorJson.of(Palette.find("red").orElseThrow()));
            assertThat(commands.dbsize()).isEqualTo(2 + 1 + Palette.NAMED);
            assertThat(floor.keys()).hasSize(1 + Palette.NAMED).allMatch(key -> key.startsWith(RedisFloor.PALETTE_KEY));

            floor.close();

            assertThat(commands.keys("*")).containsExactlyInAnyOrder("colors::v3::red", "not-ours");
        }
    }

    @Test
    void aKeyGoneMissingFailsTheMeasurementInsteadOfPassingForACheapRead() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); RedisClient client = RedisClient.create(redis.url());
                StatefulRedisConnection<String, String> connection = client.connect();
                RedisFloor floor = new RedisFloor(redis.url(), Palette.all(), 2, 0, 0.2)) {
            RedisCommands<String, String> commands = connection.sync();
            floor.measure(1, () -> cpu(commands));
            commands.del(RedisFloor.PREFIX + "red");

            assertThatThrownBy(() -> floor.measure(2, () -> cpu(commands))).hasMessageContaining("MGET of the 148 keys under colors::floor:: answered 147 values");
        }
    }

    @Test
    void aRunThatMeasuresNoFloorWritesNothing() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(); RedisClient client = RedisClient.create(redis.url());
                StatefulRedisConnection<String, String> connection = client.connect()) {
            new RedisFloor(redis.url(), Palette.all(), 2, 0, 0.2).close();

            assertThat(connection.sync().dbsize()).isZero();
        }
    }

    /** Redis's CPU so far, as the run reads a row's: {@code used_cpu_user + used_cpu_sys} of {@code INFO cpu}. */
    private static Optional<Double> cpu(RedisCommands<String, String> commands) {
        double seconds = 0;
        for (String line : commands.info("cpu").split("\r?\n")) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return Optional.of(seconds);
    }
}

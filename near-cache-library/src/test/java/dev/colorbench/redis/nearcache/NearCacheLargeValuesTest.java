package dev.colorbench.redis.nearcache;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.testkit.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 2,000 values of 1 MB run through a {@code @Cacheable} near cache in an application whose heap is 512 MB, four times
 * less than the values: the copy keeps within its budget (a tenth of the heap), the application answers every read
 * right, and nothing runs out of memory. The application runs in a JVM of its own ({@link LargeValuesApplication}), so
 * that its heap is the one stated. Redis, started here, holds at most 800 MB, evicting the least recently used key: more
 * than the heap, so a copy that did not keep its bound would run the application out of memory.
 */
class NearCacheLargeValuesTest {

    private static final Pattern RESULT = Pattern.compile("^RESULT answered=(\\d+) wrong=(\\d+) loads=(\\d+) bytes=(\\d+) budget=(\\d+)$");

    @Test
    void twoThousandValuesOfOneMegabyteRunThroughACacheUnderAHalfGigabyteHeap() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            RedisClient client = RedisClient.create(redis.url());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                // the server this test started: an eviction is reported to the tracking as a write is
                // one setting a CONFIG SET: Redis 6.2 takes no more
                connection.sync().configSet("maxmemory", "800mb");
                connection.sync().configSet("maxmemory-policy", "allkeys-lru");
            }
            finally {
                client.shutdown();
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            Process application = new ProcessBuilder(java, "-Xmx512m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                    LargeValuesApplication.class.getName(), redis.url()).redirectErrorStream(true).start();
            List<String> output = new ArrayList<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(application.getInputStream(), StandardCharsets.UTF_8))) {
                    lines.lines().forEach(output::add);
                }
                catch (java.io.IOException ex) {
                    // the process ended
                }
            });
            reader.start();
            boolean ended = application.waitFor(5, TimeUnit.MINUTES);
            if (!ended) {
                application.destroyForcibly().waitFor();
            }
            reader.join(10_000);

            assertThat(ended).as("the application ended within 5 minutes: %s", output).isTrue();
            assertThat(application.exitValue()).as("its exit code, with -XX:+ExitOnOutOfMemoryError: %s", output).isZero();
            Matcher result = output.stream().map(RESULT::matcher).filter(Matcher::matches).findFirst().orElseThrow(
                    () -> new AssertionError("no RESULT line in " + output));
            assertThat(Long.parseLong(result.group(1))).as("reads answered").isEqualTo(3L * LargeValuesApplication.VALUES);
            assertThat(Long.parseLong(result.group(2))).as("reads answered with another value").isZero();
            long budget = Long.parseLong(result.group(5));
            assertThat(budget).as("a tenth of the heap").isBetween(40L << 20, 52L << 20);
            assertThat(Long.parseLong(result.group(4))).as("the most the copy weighed").isPositive().isLessThanOrEqualTo(budget);
        }
    }
}

package dev.colorbench.benchmark.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.RedisServer;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.testkit.statistics.Statistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The servers scenario names each server as it names itself, and says whether the rows rank the same on every server. */
class ServersTest {

    private static final List<Target> ROWS = ModuleCatalog.read(Path.of("..")).targets(List.of("cacheable-loop", "mget-raw"));

    private static final RedisServer VALKEY = new RedisServer("Valkey", "9.1.2", "redis://127.0.0.1:1", null);

    private static final List<Servers.Column> COLUMNS = List.of(new Servers.Column("Redis 6.2.11 (embedded)", null),
            new Servers.Column(VALKEY.label(), VALKEY));

    @Test
    void aServerExecutableIsNamedByWhatItSaysOfItself(@TempDir Path folder) throws Exception {
        Path executable = folder.resolve("valkey-server");
        Files.writeString(executable, "#!/bin/sh\necho 'Valkey server v=9.1.2 sha=00000000:0 malloc=jemalloc-5.3.1 bits=64 build=9108e8f1788612b'\n");
        Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwx------"));

        RedisServer server = ServerChoice.ofExecutable(executable);

        assertThat(server.label()).isEqualTo("Valkey 9.1.2");
        assertThat(Target.onServer(ROWS.get(1).module(), server).id()).isEqualTo("mget-raw@valkey-9.1.2");
    }

    @Test
    void somethingThatIsNoServerIsRefusedSayingWhy(@TempDir Path folder) throws Exception {
        Path notAServer = folder.resolve("true");
        Files.writeString(notAServer, "#!/bin/sh\necho 'hello'\n");
        Files.setPosixFilePermissions(notAServer, PosixFilePermissions.fromString("rwx------"));

        assertThatThrownBy(() -> ServerChoice.ofExecutable(notAServer)).hasMessageContaining("did not say which server it is");
        assertThatThrownBy(() -> ServerChoice.ofExecutable(folder.resolve("missing"))).hasMessageContaining("not an executable file");
    }

    /**
     * Each server's rows are ranked by the headline's rule, and each row on another server is set against the same row on the
     * run's own Redis by the ratio of their rounds: here Valkey's MGET costs 0.80 of Redis's, its loop the same.
     */
    @Test
    void eachServersRowsAreRankedAndSetAgainstTheFirstServerByTheHeadlinesRule() {
        Map<String, Map<Integer, Double>> cpu = new LinkedHashMap<>();
        cpu.put("cacheable-loop", rounds(6_000, 0.99, 1.01, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99));
        cpu.put("mget-raw", rounds(100, 1.01, 0.99, 1.0, 0.98, 1.02, 1.0, 0.99, 1.01));
        cpu.put("cacheable-loop@valkey-9.1.2", rounds(6_000, 1.0, 1.0, 0.99, 1.02, 0.99, 1.01, 1.0, 0.99));
        cpu.put("mget-raw@valkey-9.1.2", rounds(80, 1.0, 0.99, 1.01, 0.99, 1.01, 1.0, 0.98, 1.02));
        Statistics.Rounds rounds = Statistics.rounds(cpu, RowFigures.forkOf(4));

        assertThat(Servers.ranking(ROWS, COLUMNS, rounds)).isEqualTo("Ranked by CPU per request on each server, as the headline ranks: "
                + "Redis 6.2.11 (embedded): mget-raw, then cacheable-loop; Valkey 9.1.2: mget-raw@valkey-9.1.2, then cacheable-loop@valkey-9.1.2."
                + " CPU per request against the same row on Redis 6.2.11 (embedded): Valkey 9.1.2 x 0.80 to x 1.00, 1 of 2 rows apart.");
        assertThat(RowFigures.against(rounds, "cacheable-loop@valkey-9.1.2", "cacheable-loop")).startsWith("level, x 1.00");
        assertThat(RowFigures.against(rounds, "mget-raw@valkey-9.1.2", "mget-raw")).startsWith("x 0.80");
    }

    /** Eight rounds in two forks at {@code micros} times each factor. */
    private static Map<Integer, Double> rounds(double micros, double... factors) {
        Map<Integer, Double> byRound = new LinkedHashMap<>();
        for (int round = 1; round <= factors.length; round++) {
            byRound.put(round, micros * factors[round - 1]);
        }
        return byRound;
    }
}

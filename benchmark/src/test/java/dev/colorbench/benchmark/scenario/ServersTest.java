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
import dev.colorbench.benchmark.results.Spread;
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

    @Test
    void theRankingIsTheSameOrTheDifferenceIsSpelledOut() {
        assertThat(Servers.ranking(ROWS, COLUMNS, figures(300, 4_000, 310, 5_000)))
                .startsWith("The rows rank the same by throughput on every server: mget-raw > cacheable-loop.")
                .contains("Valkey 9.1.2 1.03 to 1.25");
        assertThat(Servers.ranking(ROWS, COLUMNS, figures(300, 4_000, 5_000, 310)))
                .startsWith("The rows rank differently: Redis 6.2.11 (embedded): mget-raw > cacheable-loop; Valkey 9.1.2: cacheable-loop > mget-raw.");
    }

    private static Map<String, RowFigures> figures(double loop, double mget, double loopOnValkey, double mgetOnValkey) {
        Map<String, RowFigures> figures = new LinkedHashMap<>();
        figures.put("cacheable-loop", row(loop));
        figures.put("mget-raw", row(mget));
        figures.put("cacheable-loop@valkey-9.1.2", row(loopOnValkey));
        figures.put("mget-raw@valkey-9.1.2", row(mgetOnValkey));
        return figures;
    }

    private static RowFigures row(double tps) {
        return new RowFigures("row", Spread.of(List.of(tps)), null, null, null, null, null, 1, 0, Map.of(), null, null, null);
    }
}

package dev.colorbench.benchmark.stack;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.benchmark.modules.PatternModule;
import dev.colorbench.benchmark.modules.Role;
import dev.colorbench.benchmark.modules.Store;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.testkit.FreePorts;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A module's port that something else holds fails the stack before anything starts, saying which module, which port and what to do. */
class PortCheckTest {

    private final Target inMemory = module("in-memory", 8080);

    private final Target loop = module("cacheable-loop", 8081);

    private final Target mget = module("template-mget", 8083);

    @Test
    void oneTakenPortNamesItsModuleAndTheOthersToStartInstead() {
        assertThat(PortCheck.collision(List.of(loop), List.of(inMemory, loop, mget))).isEqualTo(
                "Cannot start the stack: something else already listens where a module must: cacheable-loop on 127.0.0.1:8081. "
                        + "Stop what listens there (ss -ltnp names it), or leave that module out: -Dbenchmark.modules=in-memory,template-mget");
    }

    @Test
    void everyTakenPortIsNamedAtOnce() {
        assertThat(PortCheck.collision(List.of(inMemory, mget), List.of(inMemory, loop, mget)))
                .contains("where 2 modules must: in-memory on 127.0.0.1:8080, template-mget on 127.0.0.1:8083.")
                .endsWith("or leave those modules out: -Dbenchmark.modules=cacheable-loop");
    }

    @Test
    void whenEveryChosenPortIsTakenOnlyStoppingWhatListensHelps() {
        assertThat(PortCheck.collision(List.of(mget), List.of(mget))).endsWith("Stop what listens there (ss -ltnp names it)");
    }

    @Test
    void aPortSomethingListensOnIsTaken() throws Exception {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Target held = module("held", listening.getLocalPort());
            assertThat(PortCheck.bindable(listening.getLocalPort())).isFalse();
            assertThatThrownBy(() -> PortCheck.requireFree(List.of(held))).hasMessageContaining("held on 127.0.0.1:" + listening.getLocalPort());
        }
        assertThat(PortCheck.bindable(FreePorts.loopback())).isTrue();
    }

    private static Target module(String id, int port) {
        return new Target(id, new PatternModule(id, "a pattern", port, "MVC", Role.REDIS_PATTERN, Store.REDIS, null, false, Layout.JSON_STRINGS, null, null, List.of(), List.of()), Map.of());
    }
}

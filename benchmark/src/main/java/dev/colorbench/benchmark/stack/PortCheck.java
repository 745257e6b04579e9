package dev.colorbench.benchmark.stack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.modules.Target;

/**
 * Every chosen module must get its README port, so all of them are checked before anything starts: a
 * port another process holds then fails the stack at once, naming the module, rather than after Redis,
 * PostgreSQL and the modules before it came up, with a module's log that only says it could not bind.
 * A port taken between this check and the module's start still fails that start, with its log.
 */
final class PortCheck {

    private PortCheck() {
    }

    static void requireFree(List<Target> chosen) {
        List<Target> taken = chosen.stream().filter(target -> !bindable(target.module().port())).toList();
        if (!taken.isEmpty()) {
            throw new IllegalStateException(collision(taken, chosen));
        }
    }

    /** Binds the port as a module would (the loopback address), which is what fails when something else holds it. */
    static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(BenchmarkSettings.HOST, port));
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    /** What to tell the user when {@code taken} of the {@code chosen} modules cannot have their ports. */
    static String collision(List<Target> taken, List<Target> chosen) {
        String where = taken.stream().map(target -> target.module().id() + " on " + BenchmarkSettings.HOST + ":" + target.module().port())
                .collect(Collectors.joining(", "));
        Set<String> takenIds = taken.stream().map(Target::id).collect(Collectors.toSet());
        List<String> others = chosen.stream().map(Target::id).filter(id -> !takenIds.contains(id)).toList();
        String one = taken.size() == 1 ? "that module" : "those modules";
        return "Cannot start the stack: something else already listens where " + (taken.size() == 1 ? "a module" : taken.size() + " modules")
                + " must: " + where + ". Stop what listens there (ss -ltnp names it)"
                + (others.isEmpty() ? "" : ", or leave " + one + " out: -Dbenchmark.modules=" + String.join(",", others));
    }
}

package dev.colorbench.benchmark.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.modules.RedisServer;
import dev.colorbench.testkit.RedisCommandStats;

/**
 * Which servers the {@code servers} scenario measures: those {@code benchmark.servers} names, each a {@code redis://} URL
 * (asked its name and version with {@code INFO server}) or a server executable (asked with {@code --version}); or, when it
 * names none, those {@code benchmark/fetch-servers.sh} fetches from Debian's archive (docs/servers.md).
 */
final class ServerChoice {

    static final String FETCH_SCRIPT = "benchmark/fetch-servers.sh";

    private static final Pattern VERSION = Pattern.compile("(Redis|Valkey) server v=(\\S+)");

    private ServerChoice() {
    }

    /** The servers, checked and named; throws {@link NoServers} when none was named and none could be fetched. */
    static List<RedisServer> resolve(List<String> given, Path repositoryRoot) {
        List<String> entries = given.isEmpty() ? fetched(repositoryRoot) : given;
        List<RedisServer> servers = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (String entry : entries) {
            RedisServer server = entry.matches("^rediss?://.*") ? ofUrl(entry) : ofExecutable(Path.of(entry));
            if (!keys.add(server.key())) {
                throw new IllegalArgumentException("benchmark.servers names %s twice (%s): give each server once".formatted(server.label(), entry));
            }
            servers.add(server);
        }
        return servers;
    }

    /** No server was named and the fetch script could not give any: the reason, and what to do instead. */
    static final class NoServers extends RuntimeException {

        NoServers(String reason) {
            super(reason + ". Give servers with -Dbenchmark.servers=<redis:// URL or server executable>,... (docs/servers.md)");
        }
    }

    private static RedisServer ofUrl(String url) {
        try (RedisCommandStats stats = RedisCommandStats.connect(url)) {
            String[] server = stats.server().split(" ", 2);
            return new RedisServer(server[0], server[1], url, null);
        }
    }

    static RedisServer ofExecutable(Path executable) {
        if (!Files.isExecutable(executable)) {
            throw new IllegalArgumentException("benchmark.servers names " + executable + ", which is not an executable file");
        }
        Output output = run(List.of(executable.toAbsolutePath().toString(), "--version"), 60);
        Matcher version = VERSION.matcher(output.stdout());
        if (output.exitCode() != 0 || !version.find()) {
            throw new IllegalArgumentException("%s --version did not say which server it is (exit %d): %s %s".formatted(executable,
                    output.exitCode(), output.stdout().strip(), output.stderr().strip()));
        }
        return new RedisServer(version.group(1), version.group(2), null, executable.toAbsolutePath());
    }

    private static List<String> fetched(Path repositoryRoot) {
        Path script = repositoryRoot.resolve(FETCH_SCRIPT);
        Path folder = repositoryRoot.resolve("benchmark/target/servers");
        Console.info("servers: none named in benchmark.servers; fetching current Redis and Valkey servers with " + FETCH_SCRIPT);
        Output output = run(List.of("bash", script.toString(), folder.toString()), 600);
        if (output.exitCode() != 0) {
            throw new NoServers(FETCH_SCRIPT + " could not fetch servers (exit %d): %s".formatted(output.exitCode(), output.stderr().strip()));
        }
        List<String> executables = output.stdout().lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
        if (executables.isEmpty()) {
            throw new NoServers(FETCH_SCRIPT + " gave no server");
        }
        return executables;
    }

    private record Output(int exitCode, String stdout, String stderr) {
    }

    private static Output run(List<String> command, int timeoutSeconds) {
        try {
            Path stderr = Files.createTempFile("colorbench-servers", ".err");
            try {
                Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
                process.getOutputStream().close();
                String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    return new Output(-1, stdout, "no answer within " + timeoutSeconds + " s");
                }
                return new Output(process.exitValue(), stdout, Files.readString(stderr));
            }
            finally {
                Files.deleteIfExists(stderr);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not run " + command, ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, ex);
        }
    }
}

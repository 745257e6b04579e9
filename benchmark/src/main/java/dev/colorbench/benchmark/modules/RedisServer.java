package dev.colorbench.benchmark.modules;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A Redis-compatible server a row can read instead of the run's own Redis: one the user started ({@code url}), or a server
 * executable the run starts on a free port ({@code executable}), such as one {@code benchmark/fetch-servers.sh} fetched.
 *
 * @param product {@code Redis} or {@code Valkey}, as the server reports itself
 * @param version its version, e.g. {@code 9.1.2}
 * @param url where it listens, or {@code null} for an executable the run starts
 * @param executable the server executable to start, or {@code null} for a server given by URL
 */
public record RedisServer(String product, String version, String url, Path executable) {

    public RedisServer {
        if ((url == null) == (executable == null)) {
            throw new IllegalArgumentException("A server is given either by its URL or by its executable");
        }
    }

    /** How a row on this server is suffixed, and its folder: {@code valkey-9.1.2}. */
    public String key() {
        return (product + "-" + version).toLowerCase(Locale.ROOT);
    }

    /** {@code Valkey 9.1.2}. */
    public String label() {
        return product + " " + version;
    }
}

package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.colorbench.benchmark.Json;

/**
 * The heap a module's JVM keeps alive, read from outside it: {@code jcmd <pid> GC.run} (a full collection under the modules'
 * ParallelGC), then the heap in use from its actuator ({@code jvm.memory.used}, area heap). What a pattern holds on top of
 * what every module holds (a near cache's copy of the palette) is the difference between two rows at one value size, or
 * between two value sizes of one row.
 */
final class LiveHeap {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LiveHeap() {
    }

    /** Bytes of heap in use right after a full collection, or {@code null} where either step failed. */
    static Long afterFullGc(RunningModule module, Path javaHome) {
        Path jcmd = ModuleLauncher.java(javaHome).resolveSibling("jcmd");
        if (!Files.isExecutable(jcmd)) {
            return null;
        }
        try {
            Process gc = new ProcessBuilder(jcmd.toString(), String.valueOf(module.process().pid()), "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!gc.waitFor(30, TimeUnit.SECONDS) || gc.exitValue() != 0) {
                gc.destroyForcibly();
                return null;
            }
            HttpResponse<String> used = HTTP.send(HttpRequest.newBuilder(URI.create(module.baseUri() + "/actuator/metrics/jvm.memory.used?tag=area:heap"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            if (used.statusCode() != 200) {
                return null;
            }
            return Math.round(Json.MAPPER.readTree(used.body()).path("measurements").path(0).path("value").asDouble());
        }
        catch (IOException ex) {
            return null;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}

package dev.colorbench.benchmark.run;

import java.net.URI;
import java.nio.file.Path;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.modules.Target;

/** A module's JVM of this run: which row it is, where it listens, where it logs. */
public record RunningModule(Target target, int port, Process process, Path log) {

    public URI baseUri() {
        return URI.create("http://" + BenchmarkSettings.HOST + ":" + port);
    }
}

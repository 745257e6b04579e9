package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the steps of one run meet: they run in different Maven executions (and the supervisor in
 * its own JVM), so everything they share goes through files under {@code target/}.
 */
record RunFiles(Path moduleDirectory) {

    /** Name of the generated plan, hence of the results file the jmeter goal writes. */
    static final String RUN_PLAN = "run";

    /** What the user opens: the report, its data, the dashboards. */
    Path benchmark() {
        return moduleDirectory.resolve("target/benchmark");
    }

    /** Hand-over files between the steps, including the supervisor's state. */
    Path state() {
        return benchmark().resolve("run");
    }

    Path settings() {
        return state().resolve("settings.properties");
    }

    Path schedule() {
        return state().resolve("schedule.json");
    }

    Path verification() {
        return state().resolve("verification.json");
    }

    /** The supervisor's readings of each module's own request timer around every measured run. */
    Path serverTiming() {
        return state().resolve("server-timing.json");
    }

    Path supervisorPid() {
        return state().resolve("supervisor.pid");
    }

    Path ready() {
        return state().resolve("ready");
    }

    Path failed() {
        return state().resolve("failed");
    }

    Path stopRequest() {
        return state().resolve("stop");
    }

    Path stopped() {
        return state().resolve("stopped");
    }

    Path plans() {
        return benchmark().resolve("plans");
    }

    Path runPlan() {
        return plans().resolve(RUN_PLAN + ".jmx");
    }

    Path palette() {
        return plans().resolve("palette.json");
    }

    /**
     * The copy of a module's jar the run starts: the build may repackage the original while the
     * module runs (another build on the same checkout), which breaks a running fat jar.
     */
    Path moduleJar(PatternModule module) {
        return benchmark().resolve("jars/" + module.id() + ".jar");
    }

    Path logs() {
        return benchmark().resolve("logs");
    }

    Path moduleLog(PatternModule module) {
        return logs().resolve(module.id() + ".log");
    }

    Path moduleReport(PatternModule module) {
        return benchmark().resolve(module.id());
    }

    /** Written by jmeter-maven-plugin (testResultsTimestamp off, CSV format). */
    Path jmeterResults() {
        return moduleDirectory.resolve("target/jmeter/results/" + RUN_PLAN + ".csv");
    }

    /** Where {@code jmeter:configure} unpacked JMeter ({@code target/<uuid>/jmeter}), as it recorded in config.json. */
    Path jmeterHome() {
        Path config = moduleDirectory.resolve("target/config.json");
        for (var configuration : Json.MAPPER.readTree(config.toFile()).path("configurations")) {
            if ("configuration".equals(configuration.path("executionID").asString())) {
                return Path.of(configuration.path("jmeterDirectoryPath").asString());
            }
        }
        throw new IllegalStateException("JMeter is not configured: no configuration in " + config);
    }

    static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, content);
            // readers poll for these files: they must never see half of one
            Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The java that runs this JVM, so that JMeter's tools and the modules run on the same JDK. */
    static String javaExecutable() {
        return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }
}

package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Json;
import tools.jackson.databind.JsonNode;

import org.springframework.util.FileSystemUtils;

/**
 * The JMeter that {@code jmeter-maven-plugin}'s {@code configure} goal installed under the
 * {@code jmeter} module's {@code target/} (every build of the project does), found through the
 * {@code config.json} the plugin wrote, and launched by the run itself as a child process.
 */
public final class JMeterInstallation {

    /** The plugin's default execution id, which jmeter/pom.xml keeps, so that {@code ./mvnw jmeter:jmeter} finds the same installation. */
    private static final String EXECUTION = "configuration";

    private final Path home;

    private final String runtimeJar;

    private final String version;

    private JMeterInstallation(Path home, String runtimeJar, String version) {
        this.home = home;
        this.runtimeJar = runtimeJar;
        this.version = version;
    }

    /** The installation recorded in {@code buildDirectory/config.json}, which must be JMeter {@code version}. */
    public static JMeterInstallation configuredIn(Path buildDirectory, String version) {
        Path config = buildDirectory.resolve("config.json");
        if (!Files.isRegularFile(config)) {
            throw new IllegalStateException("JMeter is not installed (no " + config + "): run the benchmark from the repository root, "
                    + "./mvnw -Pbenchmark verify, whose build installs it");
        }
        for (JsonNode configuration : Json.MAPPER.readTree(config.toFile()).path("configurations")) {
            if (EXECUTION.equals(configuration.path("executionID").asString())) {
                JMeterInstallation installation = new JMeterInstallation(Path.of(configuration.path("jmeterDirectoryPath").asString()),
                        configuration.path("runtimeJarName").asString(), version);
                if (!Files.isRegularFile(installation.jar()) || !installation.runtimeJar.equals("ApacheJMeter-" + version + ".jar")) {
                    throw new IllegalStateException("No JMeter " + version + " at " + installation.jar() + ": run ./mvnw clean -Pbenchmark verify");
                }
                return installation;
            }
        }
        throw new IllegalStateException("JMeter is not configured: no execution '" + EXECUTION + "' in " + config);
    }

    public String version() {
        return version;
    }

    /**
     * Runs {@code plan} to the end in a JMeter process owned by {@code processes}, told to {@code started} as soon as it is;
     * fails unless JMeter exits normally.
     */
    public void run(Path plan, Path results, Path log, ChildProcesses processes, CpuPlacement placement, Consumer<ProcessHandle> started) {
        List<String> command = command("-n", "-t", plan.toString(), "-l", results.toString(), "-j", log.toString(),
                "-Jsampleresult.default.encoding=UTF-8",
                // otherwise the JMeter JVM lingers about a minute after the run
                "-Jjmeterengine.force.system.exit=true",
                // the installation's init script writes side-by-side.jmx's table (jmeter/pom.xml): none of this run's business
                "-Jjsr223.init.file=");
        try {
            Process jmeter = processes.start("JMeter", new ProcessBuilder(placement.jmeter(command)).directory(home.resolve("bin").toFile())
                    .inheritIO());
            started.accept(jmeter.toHandle());
            int exit = jmeter.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("JMeter exited with code " + exit + "; see " + log);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot start JMeter from " + jar(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while JMeter ran", ex);
        }
    }

    /**
     * JMeter's own HTML dashboard of {@code results} in {@code directory/dashboard}. A dashboard
     * that fails is reported, not fatal: the benchmark's report does not depend on it.
     */
    public void dashboard(Path results, Path directory, String title) {
        Path output = directory.resolve("dashboard");
        Path temp = directory.resolve("dashboard-temp");
        try {
            // JMeter refuses to write a dashboard into a folder that is not empty
            FileSystemUtils.deleteRecursively(output);
            Process process = new ProcessBuilder(command("-g", results.toString(), "-o", output.toString(),
                    "-j", directory.resolve("dashboard.log").toString(),
                    // the runs last seconds, not hours: one point per second on the over-time graphs
                    "-Jjmeter.reportgenerator.overall_granularity=1000",
                    // its default, ./temp, would be shared by dashboards generated one after another
                    "-Jjmeter.reportgenerator.temp_dir=" + temp,
                    "-Jjmeter.reportgenerator.report_title=" + title))
                    .directory(home.resolve("bin").toFile()).redirectErrorStream(true)
                    .redirectOutput(directory.resolve("dashboard-output.txt").toFile()).start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                Console.info("JMeter's dashboard of " + title + " timed out");
            }
            else if (process.exitValue() != 0) {
                Console.info("JMeter's dashboard of " + title + " failed, see " + directory.resolve("dashboard.log"));
            }
            FileSystemUtils.deleteRecursively(temp);
        }
        catch (IOException ex) {
            Console.info("JMeter's dashboard of " + title + " could not be made: " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private List<String> command(String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m", "-Xmx512m", "-jar", jar().toString(),
                // the CSV of the run, with a column for a reading's answer (see plan/reading.jmx) and for what the open model
                // records of each arrival (jmeter/plans/latency.jmx), written and read alike
                "-Jjmeter.save.saveservice.output_format=csv", "-Jsample_variables=reading,lag,intended,scheduled"));
        command.addAll(List.of(arguments));
        return command;
    }

    private Path jar() {
        return home.resolve("bin").resolve(runtimeJar);
    }
}

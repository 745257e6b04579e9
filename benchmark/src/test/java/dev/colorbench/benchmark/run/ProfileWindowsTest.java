package dev.colorbench.benchmark.run;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.results.Sample;
import one.profiler.AsyncProfilerLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A row's profile holds its own load only: its window opens after its ramp and closes before its load ends. */
class ProfileWindowsTest {

    @Test
    void aRowsWindowStartsAfterItsRampAndStopsBeforeItsLoadEnds() {
        ProfileWindows.Window window = ProfileWindows.Window.of(5, 1);

        assertThat(window.startMillis()).isGreaterThan(1000);
        assertThat(window.stopMillis()).isLessThan(5000);
        assertThat(window.stopMillis() - window.startMillis()).isGreaterThanOrEqualTo(ProfileWindows.LEAST_MILLIS);
    }

    @Test
    void aLoadTooShortForAWindowIsLengthenedToTheLeastThatHasOne() {
        assertThatThrownBy(() -> ProfileWindows.Window.of(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ProfileWindows.loadSeconds(1, 0)).isEqualTo(2);
        assertThat(ProfileWindows.Window.of(ProfileWindows.loadSeconds(1, 0), 0).stopMillis()).isLessThan(2000);
        assertThat(ProfileWindows.loadSeconds(5, 1)).isEqualTo(5);
    }

    @Test
    void aSamplingIsKeptOnlyIfItLayAfterTheRampAndBeforeTheLastRequest() {
        long first = 1_000_000;
        List<Sample> load = new ArrayList<>();
        for (long at = first; at <= first + 5000; at += 10) {
            load.add(new Sample(at, 2, true));
        }

        assertThat(Profiler.insideLoad(new ProfileWindows.Sampled(first + 1500, first + 4600), load, 1)).isTrue();
        // started within the ramp
        assertThat(Profiler.insideLoad(new ProfileWindows.Sampled(first + 900, first + 4600), load, 1)).isFalse();
        // still sampling after the row's last request: into the next row's load, or idle time
        assertThat(Profiler.insideLoad(new ProfileWindows.Sampled(first + 1500, first + 5200), load, 1)).isFalse();
        // started before the row's load, during the row before it
        assertThat(Profiler.insideLoad(new ProfileWindows.Sampled(first - 3000, first + 4600), load, 0)).isFalse();
        assertThat(Profiler.insideLoad(new ProfileWindows.Sampled(first + 1500, first + 4600), List.of(), 1)).isFalse();
    }

    /**
     * Two JVMs loaded one after the other, each busy in {@code between} whenever it is not under its own load: a profile that
     * spanned the other's load, or its own idle time, would hold {@code between} frames.
     */
    @Test
    void eachRowsProfileHoldsItsOwnLoadOnly(@TempDir Path folder) throws Exception {
        assumeTrue(AsyncProfilerLoader.isSupported(), "async-profiler has no library for this platform");
        Path classes = Path.of(FakeModule.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, Process> modules = new LinkedHashMap<>();
        try {
            for (String row : List.of("a", "b")) {
                Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                        "-cp", classes.toString(), FakeModule.class.getName()).redirectErrorStream(true).start();
                modules.put(row, process);
                assertThat(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine())
                        .isEqualTo("ready");
            }
            Map<String, Long> pids = new LinkedHashMap<>();
            modules.forEach((row, process) -> {
                assumeTrue(Profiler.attach(process.pid()), "async-profiler cannot attach here");
                pids.put(row, process.pid());
            });
            int loadMillis = 2000;
            Map<String, ProfileWindows.Sampled> sampled;
            try (ProfileWindows windows = new ProfileWindows(pids, ProfileWindows.Window.of(loadMillis / 1000, 0))) {
                for (String row : pids.keySet()) {
                    // as the plan does: the call, then the load
                    windows.loadStarting(row);
                    Writer input = new OutputStreamWriter(modules.get(row).getOutputStream(), StandardCharsets.UTF_8);
                    input.write("serve " + loadMillis + "\n");
                    input.flush();
                    Thread.sleep(loadMillis + 500);
                }
                sampled = windows.finish();
            }

            assertThat(sampled).containsOnlyKeys("a", "b");
            for (String row : pids.keySet()) {
                Path file = folder.resolve(row + ".collapsed.txt");
                assertThat(Profiler.asprof("dump", "-o", "collapsed", "-f", file.toString(), String.valueOf(pids.get(row)))).isTrue();
                List<String> collapsed = Files.readAllLines(file);
                assertThat(samplesIn(collapsed, "FakeModule.serve")).as(row + "'s own load").isGreaterThan(100);
                assertThat(samplesIn(collapsed, "FakeModule.between")).as(row + "'s time outside its load").isZero();
            }
        }
        finally {
            modules.values().forEach(Process::destroyForcibly);
        }
    }

    private static long samplesIn(List<String> collapsed, String frame) {
        return collapsed.stream().filter(line -> line.contains(frame))
                .mapToLong(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1).strip())).sum();
    }
}

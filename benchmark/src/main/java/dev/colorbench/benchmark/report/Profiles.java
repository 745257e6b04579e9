package dev.colorbench.benchmark.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.run.Profiler;

/** The report's section on where each row's CPU goes: its buckets, in percent of its samples, and a link to its flame graph. */
public final class Profiles {

    private Profiles() {
    }

    public static Section section(List<Target> targets, Map<String, Profiler.Profile> profiles, int seconds) {
        List<String> header = new ArrayList<>(List.of("row", "samples"));
        header.addAll(Profiler.buckets().stream().map(bucket -> bucket + " %").toList());
        header.add("flame graph");
        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (Target target : targets) {
            Profiler.Profile profile = profiles.get(target.id());
            List<String> row = new ArrayList<>(List.of(target.id()));
            if (profile == null) {
                row.add("no profile");
                Profiler.buckets().forEach(bucket -> row.add(""));
                row.add("");
            }
            else {
                row.add(Format.grouped(profile.samples()));
                profile.buckets().values().forEach(share -> row.add(Format.number(Math.round(share * 10) / 10.0)));
                row.add(profile.flameGraph());
                data.put(target.id(), profile);
            }
            rows.add(row);
        }
        return new Section("profiles", "Where the CPU goes",
                ("Each module's CPU, sampled by async-profiler every millisecond of CPU while JMeter loads the rows one after another in "
                        + "the closed model, %d s each, after the measured runs: no figure above was taken while a profiler ran. A row's "
                        + "profile holds its own load only, from half a second after JMeter's ramp to half a second before the load's "
                        + "end. A sample counts in the bucket of the frame nearest the top of its stack that a bucket names, so Jackson's code called by "
                        + "a controller is JSON. The flame graphs are beside the report.").formatted(seconds),
                header, rows, List.of(),
                List.of("Redis's and PostgreSQL's own CPU is not in these profiles: the headline table's CPU per request has it."),
                data, List.of());
    }
}

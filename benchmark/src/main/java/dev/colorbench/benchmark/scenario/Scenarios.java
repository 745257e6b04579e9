package dev.colorbench.benchmark.scenario;

import java.util.List;

/** Every scenario, in the order {@code all} runs them. */
public final class Scenarios {

    /** The name of the headline comparison, which is not a scenario but is chosen the same way. */
    public static final String HEADLINE = "headline";

    private static final List<Scenario> ALL = List.of(new Distance(), new Keys(), new Concurrency(), new Variants(), new Outage(), new Cluster(), new Writes(), new Servers());

    private Scenarios() {
    }

    /** The scenarios {@code benchmark.scenario} names ({@code all}: every one), checking that every name is known. */
    public static List<Scenario> chosen(List<String> names) {
        List<String> known = ALL.stream().map(Scenario::name).toList();
        for (String name : names) {
            if (!name.equals(HEADLINE) && !name.equals("all") && !known.contains(name)) {
                throw new IllegalArgumentException("Unknown scenario '" + name + "' in benchmark.scenario; known: headline, "
                        + String.join(", ", known) + ", all");
            }
        }
        return ALL.stream().filter(scenario -> names.contains("all") || names.contains(scenario.name())).toList();
    }

    /** Whether the headline comparison runs: by default, by name, or with {@code all}. */
    public static boolean headline(List<String> names) {
        return names.isEmpty() || names.contains(HEADLINE) || names.contains("all");
    }
}

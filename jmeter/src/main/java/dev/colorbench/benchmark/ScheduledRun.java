package dev.colorbench.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One thread group of the generated plan: a module, a phase and a repetition, planned to send its
 * first request {@code startSecond} seconds after the test started and to last {@code seconds}. Its label,
 * written into every sample JMeter records, is how the report finds the samples again.
 */
record ScheduledRun(PatternModule module, Phase phase, int repetition, int seconds, int startSecond) {

    /**
     * JMeter's open-model thread group times its arrivals from the start of the whole test, not
     * from its own start: a group that starts late fires every past arrival at once. Each one
     * therefore waits for its planned start, which is set this much after the closed-model groups
     * before it should have ended (they end when their last request returns).
     */
    static final int OPEN_MODEL_SLACK_SECONDS = 2;

    private static final String SEPARATOR = "|";

    String label() {
        return module.id() + SEPARATOR + phase.label() + SEPARATOR + repetition;
    }

    /** The run a sample label belongs to, or empty for a label this benchmark did not write. */
    static Optional<RunKey> parseLabel(String label) {
        String[] parts = label.split("\\|");
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            return Optional.of(new RunKey(PatternModule.byId(parts[0]), Phase.byLabel(parts[1]), Integer.parseInt(parts[2])));
        }
        catch (IllegalArgumentException ex) {
            return Optional.empty();
        }
    }

    /** The planned length of the whole plan, pauses included. */
    static int totalSeconds(List<ScheduledRun> schedule) {
        ScheduledRun last = schedule.get(schedule.size() - 1);
        return last.startSecond() + last.seconds();
    }

    /** Identifies a run inside the results, without its planned length. */
    record RunKey(PatternModule module, Phase phase, int repetition) {
    }

    /**
     * The order of the whole run: repetitions are interleaved across modules (A B C, A B C, ...)
     * so that drift on a shared machine hits every module alike; each module is warmed up right
     * before its first measured run, and measured in the closed model then the open model.
     */
    static List<ScheduledRun> scheduleOf(BenchmarkSettings settings) {
        List<ScheduledRun> runs = new ArrayList<>();
        int clock = 0;
        for (int repetition = 1; repetition <= settings.repetitions(); repetition++) {
            for (PatternModule module : settings.modules()) {
                if (repetition == 1 && settings.warmupSeconds() > 0) {
                    runs.add(new ScheduledRun(module, Phase.WARMUP, 0, settings.warmupSeconds(), clock));
                    clock += settings.warmupSeconds();
                }
                // the group starts at clock but sends only after its startup delay: a quiet gap to read the server's timer in
                clock += ServerTiming.QUIET_SECONDS;
                runs.add(new ScheduledRun(module, Phase.THROUGHPUT, repetition, settings.durationSeconds(), clock));
                clock += settings.durationSeconds() + OPEN_MODEL_SLACK_SECONDS;
                // the open-model schedule ends with a one-second pause so no request is cut off
                runs.add(new ScheduledRun(module, Phase.LATENCY, repetition, settings.latencyDurationSeconds() + 1, clock));
                clock += settings.latencyDurationSeconds() + 1;
            }
        }
        return List.copyOf(runs);
    }
}

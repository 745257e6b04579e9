package dev.colorbench.benchmark;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Tells the person waiting where the run is: JMeter runs the whole plan in one process, so the
 * supervisor follows the results file it appends to and reads the label of the latest sample.
 */
final class Progress {

    private static final long REPEAT_MILLIS = 15_000;

    private final RunFiles files;

    private final List<ScheduledRun> schedule;

    private final int repetitions;

    private long position;

    private String currentLabel;

    private long currentSince;

    private long lastPrinted;

    Progress(RunFiles files, BenchmarkSettings settings) {
        this.files = files;
        this.schedule = Arrays.asList(Json.read(files.schedule(), ScheduledRun[].class));
        this.repetitions = settings.repetitions();
    }

    void print() {
        String label = latestLabel();
        long now = System.currentTimeMillis();
        if (label == null) {
            return;
        }
        if (!label.equals(currentLabel)) {
            currentLabel = label;
            currentSince = now;
        }
        else if (now - lastPrinted < REPEAT_MILLIS) {
            return;
        }
        lastPrinted = now;
        int index = indexOf(label);
        if (index < 0) {
            return;
        }
        ScheduledRun run = schedule.get(index);
        long elapsedInRun = (now - currentSince) / 1000;
        long left = Math.max(0, ScheduledRun.totalSeconds(schedule) - run.startSecond() - Math.min(elapsedInRun, run.seconds()));
        Supervisor.log("run %d/%d · %s · %s%s · %d s · about %dm%02ds of load left".formatted(index + 1, schedule.size(),
                run.module().id(), run.phase().label(),
                run.phase().measured() ? " rep " + run.repetition() + "/" + repetitions : "", run.seconds(), left / 60, left % 60));
    }

    private int indexOf(String label) {
        for (int i = 0; i < schedule.size(); i++) {
            if (schedule.get(i).label().equals(label)) {
                return i;
            }
        }
        return -1;
    }

    /** The label of the last complete line appended since the previous call, or the current one. */
    private String latestLabel() {
        var results = files.jmeterResults().toFile();
        if (!results.exists() || results.length() <= position) {
            return currentLabel;
        }
        try (RandomAccessFile file = new RandomAccessFile(results, "r")) {
            long length = file.length();
            int size = (int) Math.min(length - position, 64 * 1024);
            byte[] tail = new byte[size];
            file.seek(length - size);
            file.readFully(tail);
            position = length;
            String[] lines = new String(tail, StandardCharsets.UTF_8).split("\n");
            for (int i = lines.length - 1; i >= 0; i--) {
                String[] fields = lines[i].split(",", 4);
                if (fields.length == 4 && ScheduledRun.parseLabel(fields[2]).isPresent()) {
                    return fields[2];
                }
            }
            return currentLabel;
        }
        catch (IOException ex) {
            return currentLabel;
        }
    }
}

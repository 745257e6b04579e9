package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.Console;
import dev.colorbench.benchmark.Format;
import dev.colorbench.benchmark.RunDirectory;
import dev.colorbench.benchmark.modules.Target;
import dev.colorbench.benchmark.plan.Phase;
import dev.colorbench.benchmark.plan.RunKey;
import dev.colorbench.benchmark.plan.Schedule;
import dev.colorbench.benchmark.report.Section;
import dev.colorbench.benchmark.results.JMeterResults;
import dev.colorbench.benchmark.results.Sample;
import dev.colorbench.benchmark.run.Condition;
import dev.colorbench.benchmark.run.Lab;
import dev.colorbench.benchmark.run.ModuleMeters;
import dev.colorbench.benchmark.run.RunningModule;

/**
 * {@code outage}: a fault under load. Each Redis pattern among the scenario's rows in turn is loaded in the closed model;
 * once its load has started, Redis is stopped for a few seconds and started again, empty. From
 * JMeter's samples, per module: the error window (first to last failed request), how many failed
 * and why, the time from Redis's return to the first correct answer, and that no request was
 * answered 200 with anything but the palette (JMeter's assertion compares every body). Needs the
 * embedded Redis: the run stops only a Redis it started.
 */
final class Outage implements Scenario {

    @Override
    public String name() {
        return "outage";
    }

    @Override
    public Section run(ScenarioContext context) {
        if (!context.settings().embeddedRedis()) {
            throw new IllegalStateException("The outage scenario stops and starts Redis, so it runs only on the embedded one; unset REDIS_URL");
        }
        boolean quick = context.settings().quick();
        long beforeMillis = quick ? 2000 : 3000;
        long downMillis = quick ? 2000 : 3000;
        int seconds = quick ? 9 : 14;
        List<Target> targets = context.redisPatterns();
        BenchmarkSettings settings = context.settings().forScenario(context.settings().threads());
        RunDirectory directory = context.directory().sub(name());
        Map<String, Fault> faults = new LinkedHashMap<>();
        try (Lab lab = context.measurement().open(Condition.plain(name(), settings, targets), directory)) {
            for (RunningModule module : lab.modules()) {
                String id = module.target().id();
                Injection injection = new Injection(lab, module, beforeMillis, downMillis);
                Thread fault = new Thread(injection, "outage " + id);
                fault.start();
                JMeterResults results = lab.run(Schedule.closedModel(id, seconds), settings, directory.sub(id));
                join(fault);
                if (injection.failure != null) {
                    throw new IllegalStateException("Could not put an outage under the load of " + id, injection.failure);
                }
                faults.put(id, Fault.of(results.samples(new RunKey(id, Phase.THROUGHPUT, 1)), results.failures(id), injection));
            }
        }
        return section(settings, seconds, beforeMillis, downMillis, faults);
    }

    /** Waits until load reaches the module, then stops Redis for {@code downMillis}, noting when it stopped and came back. */
    private static final class Injection implements Runnable {

        private final Lab lab;

        private final RunningModule module;

        private final long beforeMillis;

        private final long downMillis;

        private volatile long stoppedAt;

        private volatile long returnedAt;

        private volatile RuntimeException failure;

        Injection(Lab lab, RunningModule module, long beforeMillis, long downMillis) {
            this.lab = lab;
            this.module = module;
            this.beforeMillis = beforeMillis;
            this.downMillis = downMillis;
        }

        @Override
        public void run() {
            try {
                long served = ModuleMeters.requestsServed(module);
                long deadline = System.currentTimeMillis() + 60_000;
                while (ModuleMeters.requestsServed(module) < served + 20) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("no load reached " + module.target().id() + " within 60 s");
                    }
                    Thread.sleep(50);
                }
                Thread.sleep(beforeMillis);
                stoppedAt = System.currentTimeMillis();
                lab.stores().stopRedis();
                Console.info("outage: Redis stopped under the load of " + module.target().id());
                Thread.sleep(downMillis);
                lab.stores().startRedis();
                returnedAt = System.currentTimeMillis();
                Console.info("outage: Redis back, empty");
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            catch (RuntimeException ex) {
                failure = ex;
            }
        }
    }

    /**
     * What one module did through the outage: failed requests and their window, the wait for the first
     * correct answer after Redis returned, and why requests failed.
     */
    record Fault(long samples, long errors, Long firstErrorMillis, Long errorWindowMillis, Long recoveryMillis, long wrongAnswers,
            Map<String, Long> failures) {

        static Fault of(List<Sample> samples, Map<String, Long> failures, Injection injection) {
            List<Sample> failed = samples.stream().filter(sample -> !sample.success()).toList();
            Long firstError = failed.stream().mapToLong(Sample::timestamp).min().stream().boxed().findFirst().orElse(null);
            Long lastErrorEnd = failed.stream().mapToLong(sample -> sample.timestamp() + sample.elapsed()).max().stream().boxed().findFirst()
                    .orElse(null);
            Long recovery = samples.stream().filter(Sample::success).filter(sample -> sample.timestamp() >= injection.stoppedAt)
                    .mapToLong(sample -> sample.timestamp() + sample.elapsed()).filter(end -> end >= injection.returnedAt).min().stream()
                    .boxed().findFirst().map(end -> end - injection.returnedAt).orElse(null);
            long wrong = failures.entrySet().stream().filter(reason -> reason.getKey().startsWith("200")).mapToLong(Map.Entry::getValue).sum();
            return new Fault(samples.size(), failed.size(), firstError == null ? null : firstError - injection.stoppedAt,
                    firstError == null ? null : lastErrorEnd - firstError, recovery, wrong, failures);
        }
    }

    private Section section(BenchmarkSettings settings, int seconds, long beforeMillis, long downMillis, Map<String, Fault> faults) {
        List<List<String>> rows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        faults.forEach((id, fault) -> {
            rows.add(List.of(id, Format.grouped(fault.samples()), Format.grouped(fault.errors()),
                    fault.firstErrorMillis() == null ? "none" : fault.firstErrorMillis() < 0
                            ? "started %s ms before the stop".formatted(-fault.firstErrorMillis())
                            : "started %s ms after the stop".formatted(fault.firstErrorMillis()),
                    fault.errorWindowMillis() == null ? "none" : Format.grouped(fault.errorWindowMillis()) + " ms",
                    fault.recoveryMillis() == null ? "never" : Format.grouped(fault.recoveryMillis()) + " ms",
                    String.valueOf(fault.wrongAnswers()),
                    fault.failures().entrySet().stream().map(reason -> reason.getValue() + " x " + reason.getKey()).toList().toString()));
            if (fault.wrongAnswers() > 0) {
                problems.add("outage: module %s answered 200 with a wrong body %d times".formatted(id, fault.wrongAnswers()));
            }
            if (fault.recoveryMillis() == null) {
                problems.add("outage: module %s gave no correct answer after Redis came back".formatted(id));
            }
        });
        return new Section(name(), "Redis stopped under load",
                ("Each Redis pattern among the rows in turn, %d client threads for %d s; %s s after its load began, Redis was stopped, and started again, "
                        + "empty, %s s later.").formatted(settings.threads(), seconds, Format.number(beforeMillis / 1000.0),
                                Format.number(downMillis / 1000.0)),
                List.of("module", "requests", "failed", "first failure", "error window", "Redis back to first correct answer", "wrong 200s",
                        "why they failed"),
                rows,
                List.of(Charts.bars("outage-times", "Error window and recovery (ms)", List.copyOf(faults.keySet()),
                        Map.of("error window", faults.values().stream().map(f -> f.errorWindowMillis() == null ? null : f.errorWindowMillis() * 1.0)
                                .toList(), "Redis back to first correct answer", faults.values().stream()
                                        .map(f -> f.recoveryMillis() == null ? null : f.recoveryMillis() * 1.0).toList()),
                        "milliseconds", false)),
                List.of("A failure's window runs from the first failed request's start to the last one's end. Every successful answer was "
                        + "compared with the palette by JMeter's assertion: 'wrong 200s' must be 0."),
                faults, problems);
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}

package dev.colorbench.benchmark.plan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.xml.parsers.DocumentBuilderFactory;

import groovy.lang.Binding;
import groovy.lang.GroovyShell;
import groovy.lang.Script;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the open model's own scripts of {@code jmeter/plans/latency.jmx} (its arrival timer and the post-processor that
 * records each sample's latency from its arrival's due time) as JMeter's pool would, in JMeter's Groovy, with a sampler
 * that sleeps instead of sending a request.
 */
class PlanScriptsTest {

    private static final Path LATENCY = Path.of("../jmeter/plans/latency.jmx");

    /** One sample as the plan records it, with when the stand-in sampler started and ended (nanoTime). */
    record Recorded(long lagMicros, long intendedMicros, long scheduled, long startNanos, long endNanos) {

        long serviceMicros() {
            return (endNanos - startNanos) / 1000;
        }
    }

    @Test
    void aPoolTooSmallForTheRateSendsEveryArrivalAndEachLatencyRunsFromItsDueTimeNotFromWhenAThreadTookIt() throws Exception {
        // 2 threads with 20 ms answers serve 100 a second; 200 arrive a second for half a second: a queue builds up
        List<Recorded> samples = runPool(2, "200 0.5", TimeUnit.MILLISECONDS.toNanos(20));

        long scheduled = samples.get(0).scheduled();
        assertThat(scheduled).as("about 200 x 0.5 arrivals").isBetween(50L, 150L);
        assertThat(samples).as("every scheduled arrival is sent, none vanishes").hasSize((int) scheduled)
                .allSatisfy(sample -> assertThat(sample.scheduled()).isEqualTo(scheduled));
        for (Recorded sample : samples) {
            // from the due time: the wait for a thread, then the request; never less than both together
            assertThat(sample.intendedMicros()).isGreaterThanOrEqualTo(sample.lagMicros() + sample.serviceMicros());
        }
        Recorded last = samples.get(samples.size() - 1);
        assertThat(last.lagMicros()).as("the last arrivals wait for a thread far longer than an answer takes").isGreaterThan(100_000);
        assertThat(last.intendedMicros()).as("and that wait is in their latency").isGreaterThan(last.serviceMicros() + 100_000);
    }

    @Test
    void aPoolThatKeepsUpWaitsForEachArrivalsDueTimeBeforeSendingIt() throws Exception {
        List<Recorded> samples = runPool(20, "100 0.5", TimeUnit.MILLISECONDS.toNanos(2));

        assertThat(samples).hasSize((int) samples.get(0).scheduled());
        // free threads wait in the timer until each arrival is due: no request goes out before its time, which would make
        // its latency from the due time shorter than the request itself
        for (Recorded sample : samples) {
            assertThat(sample.intendedMicros()).isGreaterThanOrEqualTo(sample.lagMicros() + sample.serviceMicros());
        }
        long firstToLast = (samples.get(samples.size() - 1).startNanos() - samples.get(0).startNanos()) / 1_000_000;
        assertThat(firstToLast).as("the arrivals spread over the half-second window, not sent at once").isGreaterThan(250);
    }

    /**
     * {@code threads} threads that each run the plan's timer, then (unless it stopped the thread) sleep {@code serviceNanos}
     * as the request, then the plan's post-processor; JMeter's threads do the same with the sampler in between.
     */
    private static List<Recorded> runPool(int threads, String parameters, long serviceNanos) throws Exception {
        Document plan = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(LATENCY.toFile());
        String timer = property(plan, "JSR223Timer", "script");
        String intended = property(plan, "JSR223PostProcessor", "script");
        assertThat(property(plan, "JSR223Timer", "parameters")).isEqualTo("${__P(rate,50)} ${__P(duration,20)}");
        Properties props = new Properties();
        List<Recorded> recorded = Collections.synchronizedList(new ArrayList<>());
        // compiled once, as JMeter caches them (cacheKey), an instance for each thread
        GroovyShell shell = new GroovyShell();
        Class<? extends Script> timerClass = shell.parse(timer).getClass();
        Class<? extends Script> intendedClass = shell.parse(intended).getClass();
        List<Thread> pool = new ArrayList<>();
        List<Script[]> scripts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            scripts.add(new Script[] {timerClass.getDeclaredConstructor().newInstance(), intendedClass.getDeclaredConstructor().newInstance()});
        }
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (Script[] each : scripts) {
            Thread thread = new Thread(() -> {
                Map<String, String> vars = new HashMap<>();
                JMeterThread self = new JMeterThread();
                Map<String, Object> ctx = Map.of("threadGroup", Map.of("name", "in-memory|half|1"), "thread", self);
                each[0].setBinding(new Binding(new HashMap<>(Map.of("Parameters", parameters, "props", props, "ctx", ctx, "vars", vars))));
                each[1].setBinding(new Binding(new HashMap<>(Map.of("vars", vars))));
                try {
                    while (true) {
                        assertThat(((Number) each[0].run()).longValue()).as("the timer waits itself").isZero();
                        if (self.stopped) {
                            return;
                        }
                        long start = System.nanoTime();
                        LockSupport.parkNanos(serviceNanos);
                        while (System.nanoTime() - start < serviceNanos) {
                            LockSupport.parkNanos(serviceNanos - (System.nanoTime() - start));
                        }
                        long end = System.nanoTime();
                        each[1].run();
                        recorded.add(new Recorded(Long.parseLong(vars.get("lag")), Long.parseLong(vars.get("intended")),
                                Long.parseLong(vars.get("scheduled")), start, end));
                    }
                }
                catch (Throwable failure) {
                    failures.add(failure);
                }
            });
            pool.add(thread);
        }
        pool.forEach(Thread::start);
        for (Thread thread : pool) {
            thread.join(30_000);
        }
        assertThat(failures).isEmpty();
        List<Recorded> byStart = new ArrayList<>(recorded);
        byStart.sort(java.util.Comparator.comparingLong(Recorded::startNanos));
        return byStart;
    }

    /** Stands in for JMeter's thread, which the timer stops once every arrival of the window is taken. */
    public static final class JMeterThread {

        volatile boolean stopped;

        public void stop() {
            stopped = true;
        }
    }

    private static String property(Document plan, String element, String name) {
        Element found = (Element) plan.getElementsByTagName(element).item(0);
        NodeList properties = found.getElementsByTagName("stringProp");
        for (int i = 0; i < properties.getLength(); i++) {
            if (name.equals(((Element) properties.item(i)).getAttribute("name"))) {
                return properties.item(i).getTextContent();
            }
        }
        throw new IllegalStateException(element + " has no " + name);
    }
}

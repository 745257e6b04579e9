package dev.colorbench.benchmark.run;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * A JVM for {@link ProfileWindowsTest} that is never idle: it burns CPU in {@link #serve} while "under load" (for the
 * milliseconds a line {@code serve <ms>} on its input says) and in {@link #between} the rest of the time, so a profile
 * holding any time outside the process's own load shows {@code between} frames.
 */
public final class FakeModule {

    private static volatile long serveUntil;

    private static volatile long sink;

    private FakeModule() {
    }

    public static void main(String[] arguments) throws Exception {
        Thread input = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(System.in))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.startsWith("serve ")) {
                        serveUntil = System.currentTimeMillis() + Long.parseLong(line.substring("serve ".length()).strip());
                    }
                }
            }
            catch (Exception ex) {
                // the test has ended
            }
            System.exit(0);
        });
        input.setDaemon(true);
        input.start();
        System.out.println("ready");
        while (true) {
            if (System.currentTimeMillis() < serveUntil) {
                serve();
            }
            else {
                between();
            }
        }
    }

    /** A millisecond of work, as under load. */
    private static void serve() {
        spin(1);
    }

    /** Two milliseconds of work, then a rest: a JVM's own background work while other rows are loaded. */
    private static void between() throws InterruptedException {
        spin(2);
        Thread.sleep(3);
    }

    private static void spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        long x = sink;
        while (System.nanoTime() < end) {
            x = x * 31 + 7;
        }
        sink = x;
    }
}

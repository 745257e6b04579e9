package dev.colorbench.benchmark;

/** What the run tells the person who started it, on Maven's console, one line at a time. */
public final class Console {

    private Console() {
    }

    public static void info(String message) {
        System.out.println("[benchmark] " + message);
        System.out.flush();
    }
}

package dev.colorbench.benchmark.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.colorbench.testkit.FreePorts;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * No JVM and no bound port outlives a benchmark run: not after it ends, not when it fails, not
 * when the JVM that owns the run (Maven's) is stopped with {@code kill} or Ctrl-C. The owning JVM
 * here is a small program ({@link Owner}) that starts a listening process ({@link Listener}), the
 * way the run starts a module, and is then stopped from outside.
 */
class ChildProcessesTest {

    private static final Duration GONE_WITHIN = Duration.ofSeconds(20);

    private static final int SIGINT = 2;

    @Test
    void closingStopsEveryProcessAndFreesItsPort() throws Exception {
        int port = FreePorts.loopback();
        ChildProcesses processes = new ChildProcesses();
        Process listener = processes.start("listener", java(Listener.class, String.valueOf(port)));
        awaitListening(port);

        processes.close();

        assertThat(listener.isAlive()).isFalse();
        assertThat(listening(port)).isFalse();
        assertThatThrownBy(() -> processes.start("late", java(Listener.class, "0"))).hasMessageContaining("stopping");
    }

    @Test
    void aFailingRunStopsWhatItStarted() throws Exception {
        assertChildGoneAfter("fail", owner -> owner.waitFor(30, TimeUnit.SECONDS));
    }

    @Test
    void killOfTheOwningJvmStopsWhatItStarted() throws Exception {
        assertChildGoneAfter("wait", Process::destroy);
    }

    @Test
    void ctrlCOfTheOwningJvmStopsWhatItStarted() throws Exception {
        assertChildGoneAfter("wait", owner -> {
            // A JVM started with SIGINT ignored (any process started with '&' by a shell without job control, as a
            // script's background build is) never installs its handler, and no Ctrl-C can reach it: nothing to test there
            if (ignoresSigint(owner.pid())) {
                owner.destroy();
                owner.waitFor(GONE_WITHIN.toSeconds(), TimeUnit.SECONDS);
                abort("this build runs with SIGINT ignored (started in the background by a script), which every JVM it starts "
                        + "inherits: a Ctrl-C cannot reach them");
            }
            new ProcessBuilder("kill", "-INT", String.valueOf(owner.pid())).start().waitFor();
        });
    }

    /** Whether the process ignores SIGINT, from the kernel's mask of ignored signals (Linux); false where it cannot be read. */
    private static boolean ignoresSigint(long pid) throws IOException {
        Path status = Path.of("/proc", String.valueOf(pid), "status");
        if (!Files.isReadable(status)) {
            return false;
        }
        return Files.readAllLines(status).stream().filter(line -> line.startsWith("SigIgn:")).findFirst()
                .map(line -> (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << (SIGINT - 1))) != 0)
                .orElse(false);
    }

    private void assertChildGoneAfter(String mode, OwnerAction action) throws Exception {
        Process owner = java(Owner.class, mode).redirectErrorStream(true).start();
        try (BufferedReader output = new BufferedReader(new InputStreamReader(owner.getInputStream()))) {
            String[] started = output.readLine().split(" ");
            long childPid = Long.parseLong(started[1]);
            int port = Integer.parseInt(started[2]);
            assertThat(ProcessHandle.of(childPid)).isPresent();

            action.apply(owner);

            assertThat(owner.waitFor(GONE_WITHIN.toSeconds(), TimeUnit.SECONDS)).as("the owning JVM ends").isTrue();
            long deadline = System.nanoTime() + GONE_WITHIN.toNanos();
            while ((ProcessHandle.of(childPid).map(ProcessHandle::isAlive).orElse(false) || listening(port)) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(ProcessHandle.of(childPid).map(ProcessHandle::isAlive).orElse(false)).as("the child process is gone").isFalse();
            assertThat(listening(port)).as("its port is free").isFalse();
        }
        finally {
            owner.destroyForcibly();
        }
    }

    @FunctionalInterface
    private interface OwnerAction {

        void apply(Process owner) throws Exception;
    }

    /** Owns one {@link Listener} through {@link ChildProcesses}, says which, then waits to be stopped or fails. */
    static final class Owner {

        public static void main(String[] args) throws Exception {
            int port = FreePorts.loopback();
            try (ChildProcesses processes = new ChildProcesses()) {
                Process child = processes.start("listener", java(Listener.class, String.valueOf(port)));
                awaitListening(port);
                System.out.println("started " + child.pid() + " " + port);
                System.out.flush();
                if (args[0].equals("fail")) {
                    throw new IllegalStateException("a stage of the run failed");
                }
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    /** Listens on the given port until it is stopped, as a module does. */
    static final class Listener {

        public static void main(String[] args) throws Exception {
            try (ServerSocket socket = new ServerSocket(Integer.parseInt(args[0]), 50, InetAddress.getLoopbackAddress())) {
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    private static ProcessBuilder java(Class<?> main, String... arguments) {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    }

    private static void awaitListening(int port) throws InterruptedException {
        long deadline = System.nanoTime() + GONE_WITHIN.toNanos();
        while (!listening(port)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("nothing listens on " + port);
            }
            Thread.sleep(50);
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

}

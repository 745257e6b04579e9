package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The milliseconds a JVM's JIT compilers have spent so far, read from outside it: HotSpot's performance counters
 * ({@code java.ci.totalTime} in ticks of {@code sun.os.hrt.frequency}, what {@code jstat -compiler} prints), in the file the
 * JVM keeps at {@code /tmp/hsperfdata_<user>/<pid>}. The same timer as Micrometer's {@code jvm.compilation.time}, so a
 * row without an actuator (a module's {@code copy/}) is judged warm by the same rule as its module.
 */
final class JitTime {

    private static final int MAGIC = 0xcafec0c0;

    private JitTime() {
    }

    /** The JIT's milliseconds so far in the JVM of {@code pid}, or null where its counters cannot be read. */
    static Double millis(long pid) {
        // HotSpot keeps the file in the system's temporary directory, whatever java.io.tmpdir says (/tmp on Linux)
        for (String directory : new String[] { "/tmp", System.getProperty("java.io.tmpdir") }) {
            Path file = Path.of(directory, "hsperfdata_" + System.getProperty("user.name"), Long.toString(pid));
            if (Files.isRegularFile(file)) {
                try {
                    return millis(ByteBuffer.wrap(Files.readAllBytes(file)));
                }
                catch (IOException | RuntimeException ex) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The same from the counters' bytes; null where they hold no JIT time. */
    static Double millis(ByteBuffer buffer) {
        buffer.order(ByteOrder.BIG_ENDIAN);
        if (buffer.getInt(0) != MAGIC) {
            return null;
        }
        buffer.order(buffer.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int entries = buffer.getInt(28);
        int offset = buffer.getInt(24);
        Long ticks = null;
        Long frequency = null;
        for (int i = 0; i < entries && offset > 0 && offset < buffer.limit(); i++) {
            int length = buffer.getInt(offset);
            int nameOffset = buffer.getInt(offset + 4);
            int vectorLength = buffer.getInt(offset + 8);
            byte type = buffer.get(offset + 12);
            int dataOffset = buffer.getInt(offset + 16);
            if (vectorLength == 0 && type == 'J') {
                String name = name(buffer, offset + nameOffset);
                if (name.equals("java.ci.totalTime")) {
                    ticks = buffer.getLong(offset + dataOffset);
                }
                else if (name.equals("sun.os.hrt.frequency")) {
                    frequency = buffer.getLong(offset + dataOffset);
                }
            }
            if (length <= 0) {
                break;
            }
            offset += length;
        }
        return ticks == null || frequency == null || frequency <= 0 ? null : ticks * 1000.0 / frequency;
    }

    private static String name(ByteBuffer buffer, int from) {
        int end = from;
        while (end < buffer.limit() && buffer.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - from];
        buffer.get(from, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}

package dev.colorbench.benchmark.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The readings' own INFO traffic, which they take out of Redis's byte counters, counted as RESP puts it on the wire. */
class CpuReadingsTest {

    @Test
    void countsACommandAndABulkReplyAsTheyGoOverTheWire() {
        // *2\r\n$4\r\nINFO\r\n$3\r\ncpu\r\n
        assertThat(CpuReadings.commandBytes("INFO", "cpu")).isEqualTo(4 + 4 + 6 + 4 + 5);
        // *2\r\n$4\r\nINFO\r\n$5\r\nstats\r\n
        assertThat(CpuReadings.commandBytes("INFO", "stats")).isEqualTo(25);
        // $1234\r\n, the payload, \r\n
        assertThat(CpuReadings.replyBytes(1234)).isEqualTo(7 + 1234 + 2);
        assertThat(CpuReadings.replyBytes(9)).isEqualTo(4 + 9 + 2);
    }
}

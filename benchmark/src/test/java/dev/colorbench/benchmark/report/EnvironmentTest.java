package dev.colorbench.benchmark.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The workload's distance to Redis is written as the run measured it, and flagged where the path missed what was asked; a
 * CPU quota the run ran under is read from its cgroup.
 */
class EnvironmentTest {

    @Test
    void aMeasuredPathCloseToTheAskedOneIsWrittenWithItsFigure() {
        assertThat(Environment.distance(1.0, 0.977)).isEqualTo(" (asked; measured +0.977 ms)");
    }

    @Test
    void aPathMoreThanAFifthOffIsFlagged() {
        assertThat(Environment.distance(1.0, 1.31)).isEqualTo(" (asked; measured +1.310 ms, OFF by more than 20 %)");
    }

    @Test
    void aDirectPathSaysNothing() {
        assertThat(Environment.distance(null, null)).isEmpty();
    }

    @Test
    void aCgroupV1QuotaIsReadAsCoresOfTimeTheLeastOnTheWayToTheRoot(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path self = dir.resolve("cgroup");
        java.nio.file.Files.writeString(self, "4:memory:/elsewhere\n1:cpu:/outer/halved\n0::/\n");
        java.nio.file.Path outer = java.nio.file.Files.createDirectories(dir.resolve("cpu/outer/halved")).getParent();
        write(dir.resolve("cpu"), "-1", "100000");
        write(outer, "150000", "100000");
        write(outer.resolve("halved"), "-1", "100000");
        assertThat(Environment.cpuQuota(self, dir)).isEqualTo(1.5);
        write(outer.resolve("halved"), "50000", "50000");
        assertThat(Environment.cpuQuota(self, dir)).isEqualTo(1.0);
    }

    @Test
    void aCgroupV2QuotaIsReadFromCpuMaxAndNoneIsNull(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path self = dir.resolve("cgroup");
        java.nio.file.Files.writeString(self, "0::/user.slice/run.scope\n");
        java.nio.file.Path scope = java.nio.file.Files.createDirectories(dir.resolve("user.slice/run.scope"));
        java.nio.file.Files.writeString(dir.resolve("user.slice/cpu.max"), "max 100000\n");
        java.nio.file.Files.writeString(scope.resolve("cpu.max"), "max 100000\n");
        assertThat(Environment.cpuQuota(self, dir)).isNull();
        java.nio.file.Files.writeString(scope.resolve("cpu.max"), "100000 100000\n");
        assertThat(Environment.cpuQuota(self, dir)).isEqualTo(1.0);
        assertThat(Environment.cpuQuota(dir.resolve("no such file"), dir)).isNull();
    }

    private static void write(java.nio.file.Path cgroup, String quota, String period) throws Exception {
        java.nio.file.Files.writeString(cgroup.resolve("cpu.cfs_quota_us"), quota + "\n");
        java.nio.file.Files.writeString(cgroup.resolve("cpu.cfs_period_us"), period + "\n");
    }
}

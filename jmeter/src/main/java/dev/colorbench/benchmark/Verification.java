package dev.colorbench.benchmark;

import java.util.List;
import java.util.Map;

/**
 * What the supervisor found before any load: every module gave the canonical answer, what one
 * request costs in Redis, and the facts of the environment only the supervisor knows.
 */
record Verification(String redisVersion, String redis, String moduleJvm, String jvmArgs, List<ModuleCheck> modules) {

    record ModuleCheck(String module, int port, double startupSeconds, Map<String, Double> commands,
            double commandsPerRequest, Double roundTripsPerRequest) {
    }

    ModuleCheck of(PatternModule module) {
        return modules.stream()
                .filter(check -> check.module().equals(module.id()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("Module " + module.id() + " was not verified"));
    }
}

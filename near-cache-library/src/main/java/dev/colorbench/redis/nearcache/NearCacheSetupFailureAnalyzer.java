package dev.colorbench.redis.nearcache;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A setup the near cache refuses, reported as Spring Boot reports a bad property: its description and
 * the action naming the setting, where the stack trace of the bean that failed would bury them.
 */
class NearCacheSetupFailureAnalyzer extends AbstractFailureAnalyzer<NearCacheSetupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NearCacheSetupException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}

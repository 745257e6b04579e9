package dev.colorbench.benchmark.scenario;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Why requests failed, by what ran out first: what a scenario's cell shows beside its figures. Only a wrong answer is a
 * fault of the module; a 503, a timeout or a refused connection is what a module does when its store or the machine does
 * not keep up, and a figure of the condition that caused it.
 */
final class FailedRequests {

    static final String WRONG_ANSWER = "wrong answer";

    private FailedRequests() {
    }

    /** Failed requests by what ran out first, from JMeter's reasons. */
    static Map<String, Long> kinds(Map<String, Long> reasons) {
        Map<String, Long> kinds = new TreeMap<>();
        reasons.forEach((reason, count) -> kinds.merge(kind(reason), count, Long::sum));
        return kinds;
    }

    /** What a failed request says ran out first. */
    static String kind(String reason) {
        if (reason.startsWith("503")) {
            return "refused by the module (503: its store did not answer in time, or its connections or command queue were full)";
        }
        if (reason.contains("SocketTimeout") || reason.contains("Read timed out")) {
            return "timed out (a queue of waiting requests grew past 10 s)";
        }
        if (reason.contains("ConnectTimeout") || reason.contains("onnection refused")) {
            return "connection not accepted within 2 s (the server's accept queue was full)";
        }
        if (reason.contains("reset") || reason.contains("NoHttpResponse") || reason.contains("closed")) {
            return "connection reset or closed by the server";
        }
        if (reason.startsWith("200")) {
            return WRONG_ANSWER;
        }
        return "other: " + reason;
    }

    /** {@code 12 refused by the module (...), 3 timed out (...)}. */
    static String counted(Map<String, Long> kinds) {
        return kinds.entrySet().stream().map(kind -> kind.getValue() + " " + kind.getKey()).collect(Collectors.joining(", "));
    }
}

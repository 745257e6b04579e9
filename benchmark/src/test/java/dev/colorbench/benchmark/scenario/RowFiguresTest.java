package dev.colorbench.benchmark.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.results.JMeterResults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a scenario's cell says of failed requests, and what fails the build: a 503 is a figure of its cell, a 200 with a
 * wrong body or a row without samples is a fault; a failure in another phase of the same row is not this row's figure.
 */
class RowFiguresTest {

    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
            + "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";

    @TempDir
    Path directory;

    @Test
    void aRefusedRequestIsAFigureOfItsCellAndAWrongAnswerIsAFault() throws Exception {
        JMeterResults results = results("""
                1000,5,refusing|throughput|1,200,,t 1-1,text,true,,10385,124,1,1,http://127.0.0.1:8083/colors,5,0,0
                3000,5,refusing|throughput|1,200,,t 1-1,text,true,,10385,124,1,1,http://127.0.0.1:8083/colors,5,0,0
                4000,534,refusing|throughput|1,503,Service Unavailable,t 1-1,text,false,Test failed: code expected to equal,200,124,1,1,http://127.0.0.1:8083/colors,534,0,0
                5000,5,refusing|throughput|1,200,,t 1-1,text,true,,10385,124,1,1,http://127.0.0.1:8083/colors,5,0,0
                9000,5,refusing|half|1,500,Server Error,t 1-1,text,false,Test failed: code expected to equal,200,124,1,1,http://127.0.0.1:8083/colors,5,0,0
                1000,5,wrong|throughput|1,200,,t 1-1,text,true,,10385,124,1,1,http://127.0.0.1:8084/colors,5,0,0
                3000,5,wrong|throughput|1,200,,t 1-1,text,false,Test failed: text expected to equal,10000,124,1,1,http://127.0.0.1:8084/colors,5,0,0
                5000,5,wrong|throughput|1,200,,t 1-1,text,true,,10385,124,1,1,http://127.0.0.1:8084/colors,5,0,0
                """);

        RowFigures refusing = RowFigures.of("refusing", results, settings());
        assertThat(refusing.faults("keys", "1,000 colors")).isEmpty();
        assertThat(refusing.failures()).containsOnlyKeys(FailedRequests.kind("503"));
        assertThat(refusing.failed()).startsWith("25 % failed (1 refused by the module (503");
        assertThat(refusing.failedIfAny("; ")).startsWith("; 25 % failed");

        RowFigures wrong = RowFigures.of("wrong", results, settings());
        assertThat(wrong.faults("keys", "1,000 colors")).containsExactly("keys, 1,000 colors: module wrong answered 200 with a wrong body 1 times");
    }

    @Test
    void aRowWithoutSamplesIsAFaultAndWithoutFailuresItsCellSaysNothingOfThem() throws Exception {
        JMeterResults results = results("""
                1000,5,serving|throughput|1,200,,t 1-1,text,true,,10385,124,1,1,http://127.0.0.1:8083/colors,5,0,0
                3000,5,serving|throughput|1,200,,t 1-1,text,true,,10385,124,1,1,http://127.0.0.1:8083/colors,5,0,0
                """);

        assertThat(RowFigures.of("silent", results, settings()).faults("distance", "+1 ms"))
                .containsExactly("distance, +1 ms: module silent recorded no sample");
        RowFigures serving = RowFigures.of("serving", results, settings());
        assertThat(serving.faults("distance", "+1 ms")).isEmpty();
        assertThat(serving.failed()).isEqualTo("0 % failed");
        assertThat(serving.failedIfAny("; ")).isEmpty();
    }

    private JMeterResults results(String rows) throws Exception {
        Path file = directory.resolve("results.csv");
        Files.writeString(file, HEADER + rows);
        return JMeterResults.read(file);
    }

    private static BenchmarkSettings settings() {
        Properties properties = new Properties();
        properties.setProperty("benchmark.repetitions", "1");
        return BenchmarkSettings.from(properties, Map.of());
    }
}

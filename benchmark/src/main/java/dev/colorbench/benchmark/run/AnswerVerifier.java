package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.colorbench.core.palette.ColorJson;

/**
 * Refuses a module whose {@code GET /colors} is not the canonical palette, byte for byte: the
 * benchmark must never put load on a wrong answer, since a fast wrong answer is not a result.
 * A 503 is not a wrong answer but a store that did not answer in time, which a module's very first
 * request may meet on a busy machine (cacheable-async's first one, 148 cache reads on a cold JVM
 * with sixteen others starting, once took longer than the 500 ms command timeout): it is asked
 * again, a few times, before the module is refused.
 */
final class AnswerVerifier {

    private static final int ATTEMPTS_WHILE_UNAVAILABLE = 5;

    private static final Duration PAUSE_WHILE_UNAVAILABLE = Duration.ofSeconds(1);

    private final String expected;

    /**
     * How long one answer may take: 10 s, and a millisecond more per 20 bytes of the expected answer,
     * because a module's first request may seed and read the whole palette one key at a time (the
     * repository's first one at 10,000 colors, seeding 10,000 hashes, took longer than 10 s).
     */
    private final Duration timeout;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** A verifier of the canonical palette of 148 colors. */
    AnswerVerifier() {
        this(ColorJson.palette());
    }

    /** A verifier of {@code expected}, the answer of a palette of another size. */
    AnswerVerifier(String expected) {
        this.expected = expected;
        this.timeout = Duration.ofSeconds(10).plusMillis(expected.length() / 20);
    }

    /** Fetches {@code /colors} once and compares it; throws {@link WrongAnswerException} naming the module. */
    void verify(String module, URI baseUri) {
        HttpResponse<String> response = fetch(module, baseUri.resolve("/colors"));
        for (int attempt = 1; attempt < ATTEMPTS_WHILE_UNAVAILABLE && response.statusCode() == 503; attempt++) {
            pause(module);
            response = fetch(module, baseUri.resolve("/colors"));
        }
        if (response.statusCode() != 200) {
            throw new WrongAnswerException(module, "GET /colors answered status " + response.statusCode());
        }
        String actual = response.body();
        if (!expected.equals(actual)) {
            throw new WrongAnswerException(module, "GET /colors is not the canonical palette: " + firstDifference(expected, actual));
        }
    }

    private HttpResponse<String> fetch(String module, URI uri) {
        try {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (IOException ex) {
            throw new WrongAnswerException(module, "GET " + uri + " failed: " + ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new WrongAnswerException(module, "interrupted while fetching " + uri);
        }
    }

    private static void pause(String module) {
        try {
            Thread.sleep(PAUSE_WHILE_UNAVAILABLE.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new WrongAnswerException(module, "interrupted while waiting for its store");
        }
    }

    /** Where two answers part, shown with a little context so the message says what is wrong. */
    static String firstDifference(String expected, String actual) {
        int length = Math.min(expected.length(), actual.length());
        int at = 0;
        while (at < length && expected.charAt(at) == actual.charAt(at)) {
            at++;
        }
        return "expected %d characters, got %d; first difference at character %d: expected \"%s\", got \"%s\""
                .formatted(expected.length(), actual.length(), at, excerpt(expected, at), excerpt(actual, at));
    }

    private static String excerpt(String text, int at) {
        int from = Math.max(0, at - 20);
        int to = Math.min(text.length(), at + 40);
        return text.substring(from, to);
    }

    /** The module and what it got wrong: the message the build stops with. */
    static final class WrongAnswerException extends RuntimeException {

        WrongAnswerException(String module, String problem) {
            super("Module " + module + " gives a wrong answer, the benchmark will not load it: " + problem);
        }
    }
}

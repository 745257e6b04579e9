package dev.colorbench.core.palette;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * Turns request input into palette names, or into a 400/404 problem. Every name is checked
 * here, before it can become part of a Redis key, so no input can address a key outside a
 * module's namespace.
 */
public final class ColorNames {

    /** The most names one {@code ?names=} request may ask for. */
    public static final int MAX_NAMES = 1000;

    /** Longer than any CSS color name, short enough to bound the work a bad request costs. */
    static final int MAX_NAME_LENGTH = 32;

    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z]{1," + MAX_NAME_LENGTH + "}");

    private ColorNames() {
    }

    /** One name from a path segment: well-formed and in the palette, else a problem. */
    public static String single(String raw) {
        String name = wellFormed(raw);
        if (!Palette.contains(name)) {
            throw unknown(List.of(name));
        }
        return name;
    }

    /** A comma-separated list from {@code ?names=}: every name well-formed and known, order kept. */
    public static List<String> list(String csv) {
        String[] parts = csv.split(",", -1);
        if (parts.length > MAX_NAMES) {
            throw badRequest("At most " + MAX_NAMES + " names may be asked for at once, got " + parts.length + ".");
        }
        List<String> names = new ArrayList<>(parts.length);
        List<String> unknown = new ArrayList<>();
        for (String part : parts) {
            String name = wellFormed(part);
            names.add(name);
            if (!Palette.contains(name) && !unknown.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw unknown(unknown);
        }
        return names;
    }

    private static String wellFormed(String raw) {
        if (raw.isEmpty()) {
            throw badRequest("A color name must not be empty.");
        }
        if (!WELL_FORMED.matcher(raw).matches()) {
            throw badRequest("A color name is 1 to " + MAX_NAME_LENGTH + " ASCII letters; got '" + printable(raw) + "'.");
        }
        return raw.toLowerCase(Locale.ROOT);
    }

    /** Echoes bad input safely: bounded, and with control characters made visible. */
    private static String printable(String raw) {
        String shown = raw.length() > MAX_NAME_LENGTH ? raw.substring(0, MAX_NAME_LENGTH) + "..." : raw;
        StringBuilder out = new StringBuilder(shown.length());
        shown.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append("\\u%04x".formatted(c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private static ErrorResponseException badRequest(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setTitle("Invalid color name");
        return new ErrorResponseException(HttpStatus.BAD_REQUEST, problem, null);
    }

    private static ErrorResponseException unknown(List<String> names) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
                "No such color: " + String.join(", ", names) + ".");
        problem.setTitle("Unknown color");
        problem.setProperty("unknownNames", names);
        return new ErrorResponseException(HttpStatus.NOT_FOUND, problem, null);
    }
}

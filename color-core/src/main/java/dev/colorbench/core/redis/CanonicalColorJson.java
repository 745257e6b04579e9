package dev.colorbench.core.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Recognises, on the bytes alone, a stored color that is already exactly what the core's
 * {@code ColorCodec} would write for it: {@code {"name":"<name>","hex":"#rrggbb","red":r,"green":g,"blue":b}}
 * with the key's own name, six lower-case hex digits, and red, green and blue written as the
 * plain decimals of that hex's three bytes (no sign, no leading zero, no space anywhere), and, when
 * the color has one, {@code ,"padding":"<lower-case letters>"} before the closing brace.
 *
 * <p>Such a value is a readable color for its key, and it is byte for byte the canonical JSON of
 * that color, so it can be copied into the answer as it is: whatever it holds is letters, digits
 * and fixed punctuation, which cannot break the array around it. It is compared with the
 * palette in nothing but the name: a consistent color that another writer stored is recognised
 * just the same. Anything else is not rejected here, only not recognised: the store then asks
 * the codec, which decides whether it is readable.
 *
 * <p>{@link #isCanonical(byte[], byte[])} recognises any padding of letters; the codec also asks that
 * the padding be the palette's for that name, and {@link #isCanonical(byte[], byte[], byte[])},
 * given the {@link #tail tail} that padding makes, recognises just that one.
 */
public final class CanonicalColorJson {

    private static final byte[] RED = bytes("\",\"red\":");

    private static final byte[] GREEN = bytes(",\"green\":");

    private static final byte[] BLUE = bytes(",\"blue\":");

    private static final byte[] PADDING = bytes(",\"padding\":\"");

    private static final byte[] CLOSE = bytes("}");

    /** Six hex digits, the three literals, three channels of one digit each and the closing brace. */
    private static final int SHORTEST_TAIL = 6 + RED.length + GREEN.length + BLUE.length + 3 + 1;

    /** ... and of three digits each. */
    private static final int LONGEST_TAIL = SHORTEST_TAIL + 6;

    private CanonicalColorJson() {
    }

    /** What every canonical value for {@code name} starts with: {@code {"name":"<name>","hex":"#}. */
    public static byte[] head(String name) {
        return bytes("{\"name\":\"" + name + "\",\"hex\":\"#");
    }

    /** What every canonical value of a color with {@code padding} (null: none) ends with: its padding, if any, and the brace. */
    public static byte[] tail(String padding) {
        return padding == null ? CLOSE.clone() : bytes(",\"padding\":\"" + padding + "\"}");
    }

    /**
     * Whether {@code json} is the canonical JSON of a consistent color whose value starts with {@code head}, with no padding
     * or a padding of lower-case letters.
     */
    public static boolean isCanonical(byte[] head, byte[] json) {
        int length = json.length;
        if (length > head.length + LONGEST_TAIL && length < head.length + SHORTEST_TAIL + PADDING.length + 1) {
            return false;
        }
        int at = channelsEnd(head, json);
        if (at < 0) {
            return false;
        }
        if (at == length - 1) {
            return json[at] == '}';
        }
        at = literal(json, at, PADDING);
        if (at < 0) {
            return false;
        }
        for (int end = length - 2; at < end; at++) {
            if (json[at] < 'a' || json[at] > 'z') {
                return false;
            }
        }
        return at == length - 2 && json[at] == '"' && json[at + 1] == '}';
    }

    /**
     * Whether {@code json} is the canonical JSON of a consistent color whose value starts with {@code head} and ends with
     * {@code tail}: {@link #tail} of the padding expected.
     */
    public static boolean isCanonical(byte[] head, byte[] json, byte[] tail) {
        int length = json.length;
        int rest = length - tail.length;
        if (rest < head.length + SHORTEST_TAIL - 1 || rest > head.length + LONGEST_TAIL - 1
                || !Arrays.equals(json, rest, length, tail, 0, tail.length)) {
            return false;
        }
        return channelsEnd(head, json) == rest;
    }

    /** The position after the blue channel's digits if {@code json} is canonical up to there, else -1. */
    private static int channelsEnd(byte[] head, byte[] json) {
        int at = head.length;
        int length = json.length;
        if (length < at + SHORTEST_TAIL || !Arrays.equals(json, 0, at, head, 0, at)) {
            return -1;
        }
        int rgb = 0;
        for (int end = at + 6; at < end; at++) {
            int digit = lowerCaseHexDigit(json[at]);
            if (digit < 0) {
                return -1;
            }
            rgb = (rgb << 4) | digit;
        }
        at = decimal(json, literal(json, at, RED), (rgb >> 16) & 0xFF);
        at = decimal(json, literal(json, at, GREEN), (rgb >> 8) & 0xFF);
        return decimal(json, literal(json, at, BLUE), rgb & 0xFF);
    }

    /** The position after {@code literal} if {@code json} has it at {@code at}, else -1. */
    private static int literal(byte[] json, int at, byte[] literal) {
        if (at < 0 || at + literal.length > json.length || !Arrays.equals(json, at, at + literal.length, literal, 0, literal.length)) {
            return -1;
        }
        return at + literal.length;
    }

    /** The position after the plain decimal of {@code value} (0 to 255) if {@code json} has it at {@code at}, else -1. */
    private static int decimal(byte[] json, int at, int value) {
        if (at < 0) {
            return -1;
        }
        int digits = (value >= 100) ? 3 : (value >= 10) ? 2 : 1;
        if (at + digits > json.length) {
            return -1;
        }
        for (int i = digits - 1, rest = value; i >= 0; i--, rest /= 10) {
            if (json[at + i] != '0' + rest % 10) {
                return -1;
            }
        }
        return at + digits;
    }

    private static int lowerCaseHexDigit(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        return -1;
    }

    private static byte[] bytes(String ascii) {
        return ascii.getBytes(StandardCharsets.US_ASCII);
    }
}

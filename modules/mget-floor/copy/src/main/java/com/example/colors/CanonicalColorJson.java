package com.example.colors;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Recognises, on the bytes alone, a stored color that is exactly what the application's {@code JsonMapper} writes for
 * it: {@code {"name":"<name>","hex":"#rrggbb","red":r,"green":g,"blue":b}} with the key's own name, six lower-case hex
 * digits, and red, green and blue the plain decimals of that hex's three bytes (no sign, no leading zero, no space).
 * Such a value holds only letters, digits and fixed punctuation, so it can be copied into the answer as it is without
 * breaking the array around it. A consistent color that another writer stored is recognised just the same; anything
 * else is only not recognised, and the store decodes it.
 */
final class CanonicalColorJson {

    private static final byte[] RED = bytes("\",\"red\":");

    private static final byte[] GREEN = bytes(",\"green\":");

    private static final byte[] BLUE = bytes(",\"blue\":");

    /** Six hex digits, the three literals, three channels of one digit each and the closing brace. */
    private static final int SHORTEST_TAIL = 6 + RED.length + GREEN.length + BLUE.length + 3 + 1;

    /** ... and of three digits each. */
    private static final int LONGEST_TAIL = SHORTEST_TAIL + 6;

    private CanonicalColorJson() {
    }

    /** What every canonical value for {@code name} starts with: {@code {"name":"<name>","hex":"#}. */
    static byte[] head(String name) {
        return bytes("{\"name\":\"" + name + "\",\"hex\":\"#");
    }

    /** Whether {@code json} is the canonical JSON of a consistent color whose value starts with {@code head}. */
    static boolean isCanonical(byte[] head, byte[] json) {
        int at = head.length;
        int length = json.length;
        if (length < at + SHORTEST_TAIL || length > at + LONGEST_TAIL || !Arrays.equals(json, 0, at, head, 0, at)) {
            return false;
        }
        int rgb = 0;
        for (int end = at + 6; at < end; at++) {
            int digit = lowerCaseHexDigit(json[at]);
            if (digit < 0) {
                return false;
            }
            rgb = (rgb << 4) | digit;
        }
        at = decimal(json, literal(json, at, RED), (rgb >> 16) & 0xFF);
        at = decimal(json, literal(json, at, GREEN), (rgb >> 8) & 0xFF);
        at = decimal(json, literal(json, at, BLUE), rgb & 0xFF);
        return at == length - 1 && json[at] == '}';
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

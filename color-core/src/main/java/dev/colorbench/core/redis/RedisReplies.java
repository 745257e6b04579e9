package dev.colorbench.core.redis;

/**
 * Tells the error replies of a Redis server apart, whichever exception carries them. Redis
 * error replies start with an upper-case code ({@code WRONGTYPE Operation against a key...},
 * {@code OOM command not allowed...}); Lettuce and Jedis put that text in their exception's
 * message, which Spring Data wraps in a {@code DataAccessException}, so the whole cause chain
 * is searched. A connection failure or a timeout carries no such reply.
 *
 * <p>The difference matters because they all arrive as {@code DataAccessException}: a
 * {@code WRONGTYPE} reply means bad data under one key, which a module heals; a refused write
 * means the server is there and answering reads, so a read can still be answered from the
 * palette; only what is left means Redis is unavailable (a 503).
 */
public final class RedisReplies {

    /** Replies to a write the server refused while still serving reads. */
    private static final String[] REFUSED_WRITE = { "OOM", "READONLY", "MISCONF", "NOREPLICAS", "NOPERM" };

    private RedisReplies() {
    }

    /** A command met a key holding another type than it works on: bad data, not an outage. */
    public static boolean isWrongType(Throwable error) {
        return hasReply(error, "WRONGTYPE");
    }

    /**
     * The server refused a write: out of memory under {@code noeviction}, a read-only replica,
     * a failing disk, too few replicas, or an ACL that forbids writing.
     */
    public static boolean isRefusedWrite(Throwable error) {
        return refusedWriteCode(error) != null;
    }

    /** The code of the reply that refused a write ({@code OOM}, {@code READONLY}, ...), or null if none did. */
    public static String refusedWriteCode(Throwable error) {
        for (String code : REFUSED_WRITE) {
            if (hasReply(error, code)) {
                return code;
            }
        }
        return null;
    }

    private static boolean hasReply(Throwable error, String code) {
        for (Throwable t = error; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.startsWith(code) && (message.length() == code.length() || message.charAt(code.length()) == ' ')) {
                return true;
            }
        }
        return false;
    }
}

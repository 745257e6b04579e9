package dev.colorbench.redis.nearcache;

/**
 * A setup the near cache refuses at start-up, as its staleness bound cannot hold in it: what it is and
 * why ({@link #description()}), and what to change, naming the setting ({@link #action()}). Spring
 * Boot reports it as a failure analysis, without a stack trace ({@link NearCacheSetupFailureAnalyzer}).
 */
public class NearCacheSetupException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;

    private final String action;

    /**
     * @param description what is refused, and why
     * @param action what to change, naming the setting
     */
    public NearCacheSetupException(String description, String action) {
        super(description + " " + action);
        this.description = description;
        this.action = action;
    }

    /** What is refused, and why. */
    public String description() {
        return description;
    }

    /** What to change, naming the setting. */
    public String action() {
        return action;
    }
}

package dev.colorbench.testkit.statistics;

/**
 * A figure and its 95 % interval, as the one statistics core draws them ({@link Statistics.Rounds}): what summary.json
 * writes for every figure with an interval (docs/measuring.md#rounds-and-intervals).
 *
 * @param estimate the figure
 * @param low the lower end of the 95 % interval
 * @param high the upper end of the 95 % interval
 * @param rounds how many rounds it is over
 */
public record Interval(double estimate, double low, double high, int rounds) {

    /** The same interval with every figure multiplied by {@code factor} (a ratio as a percentage, say). */
    public Interval times(double factor) {
        return new Interval(estimate * factor, low * factor, high * factor, rounds);
    }

    /**
     * Whether the two intervals share a value: the fleet table's check of one row's application and Redis sides. Rows are
     * ranked by their paired ratio instead ({@link Statistics.Rounds#apart}).
     */
    public boolean overlaps(Interval other) {
        return low <= other.high && other.low <= high;
    }

    /** Whether {@code value} lies in the interval. */
    public boolean contains(double value) {
        return low <= value && value <= high;
    }

    /** Half the interval's width as a share of its estimate, in percent: how far the figure may be off. */
    public Double halfWidthPercent() {
        return estimate == 0 ? null : (high - low) * 50 / Math.abs(estimate);
    }
}

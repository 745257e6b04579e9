package dev.colorbench.benchmark;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** How every stage writes a figure for people: the one place numbers get their look. */
public final class Format {

    private Format() {
    }

    /** A whole number as such, anything else with one decimal: {@code 148}, {@code 0.5}. */
    public static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }

    /** A value as it was asked for, every decimal it has up to three: {@code 0.25}, {@code 5}. */
    public static String asked(double value) {
        return BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    /** Rounded, with thousands separated: {@code 19,053}. */
    public static String grouped(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    /** Two decimals: ratios. */
    public static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    /** One decimal and a percent sign. */
    public static String percent(double value) {
        return String.format(Locale.ROOT, "%.1f %%", value);
    }

    /** Whole minutes and seconds: {@code 6m05s}. */
    public static String duration(long seconds) {
        return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
    }
}

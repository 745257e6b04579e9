package dev.colorbench.benchmark.plan;

/**
 * What the plan checks of each answer under load, besides its status. Measured on 2 cores (docs/measuring.md), JMeter spent
 * 44 to 97 µs of CPU per request whatever the check: the whole comparison costs it a few µs more than none, an MD5 more than
 * the whole comparison, a Groovy script more still. So the default stays the strongest check.
 */
public enum BodyCheck {

    /** Byte for byte the expected palette: the checked-in plans' own assertion, the default. */
    WHOLE,

    /** The MD5 of the expected palette (JMeter's own assertion): as strict in practice, and not cheaper. */
    DIGEST,

    /**
     * As long as the expected palette: while another writer changes colors, a right answer is any consistent
     * palette, and every change the writes scenario makes keeps each color's JSON as long as it was. Whether the
     * answers were right is checked once the writes stop, against what the store then holds.
     */
    LENGTH
}

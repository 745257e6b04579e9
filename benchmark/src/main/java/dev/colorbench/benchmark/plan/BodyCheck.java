package dev.colorbench.benchmark.plan;

/**
 * What the plan checks of each answer under load, besides its status. JMeter's CPU per request hardly depends on the
 * check: its HTTP client and bookkeeping cost far more than the comparison. So the default stays the strongest check
 * (docs/measuring.md#jmeters-own-cost).
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

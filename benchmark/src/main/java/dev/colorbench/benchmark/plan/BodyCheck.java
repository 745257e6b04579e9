package dev.colorbench.benchmark.plan;

/** What the plan checks of each answer under load, besides its status. */
public enum BodyCheck {

    /** Byte for byte the expected palette: the checked-in plans' own assertion. */
    WHOLE,

    /**
     * As long as the expected palette: while another writer changes colors, a right answer is any consistent
     * palette, and every change the writes scenario makes keeps each color's JSON as long as it was. Whether the
     * answers were right is checked once the writes stop, against what the store then holds.
     */
    LENGTH
}

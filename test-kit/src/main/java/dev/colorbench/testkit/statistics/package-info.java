/**
 * The one statistics core of the project: the median, the percentile, the 95 % interval and the rule that ranks two
 * figures apart or calls them level. The benchmark's figures and the tests' printed percentiles both come from here, so
 * that a percentile means one thing on every page and in every log (docs/measuring.md#rounds-and-intervals).
 */
package dev.colorbench.testkit.statistics;

/**
 * The report of a run: one {@link dev.colorbench.benchmark.report.ModuleSummary} per row, built
 * once from what was verified and measured, written as {@code summary.json}, {@code report.md} and a
 * self-contained {@code report.html} (templates under {@code resources/report}, Chart.js inlined),
 * and the check that fails the build on errors or empty runs.
 */
package dev.colorbench.benchmark.report;

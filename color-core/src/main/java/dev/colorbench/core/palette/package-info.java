/**
 * The palette and its wire format: the 148 CSS named colors in canonical order, and the exact JSON
 * bytes {@code GET /colors} must answer in every module. {@link dev.colorbench.core.palette.ColorNames}
 * turns request input into palette names, or a 400 or 404 problem, before any key is built. Nothing
 * here knows a store.
 */
package dev.colorbench.core.palette;

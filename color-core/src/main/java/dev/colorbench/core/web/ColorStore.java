package dev.colorbench.core.web;

import java.util.List;

import dev.colorbench.core.palette.Color;

/**
 * One way of reading colors: each blocking pattern module provides exactly one, and the
 * shared {@link ColorController} serves it. Names arrive validated, lower-case and known.
 */
public interface ColorStore {

    /** The whole palette, in canonical order. */
    List<Color> findAll();

    /** The colors with these names, in the order asked, duplicates kept. */
    List<Color> findByNames(List<String> names);
}

package dev.colorbench.core.web;

import java.util.List;

import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.EncodedColors;

/**
 * A way of reading colors that answers with the wire format's bytes itself, for a blocking
 * module that never turns its colors into objects: the shared {@link EncodedColorController}
 * writes what it returns to the response as it is. A module implements either this or
 * {@link ColorStore}, never both. Names arrive validated, lower-case and known.
 *
 * <p>What it returns must be exactly what {@link ColorJson} would write for the same colors
 * (the contract test compares byte for byte); {@link EncodedColors#array} joins the encoded
 * colors into the array.
 */
public interface EncodedColorStore {

    /** The JSON array of the whole palette, in canonical order. */
    byte[] findAll();

    /** The JSON array of the colors with these names, in the order asked, duplicates kept. */
    byte[] findByNames(List<String> names);

    /** The JSON object of the color with this name. */
    byte[] findOne(String name);
}

package dev.colorbench.core.redis;

import java.util.ArrayList;
import java.util.List;

import dev.colorbench.core.palette.Color;

/**
 * What a read of many keys found, decoded by {@link ColorCodec#decodeAll}: the colors to answer
 * with (readable values as stored, the palette's color for the rest, in the order asked) and
 * the names whose keys need writing. Each name appears at most once in {@link #missing()} and
 * {@link #unreadable()}, however often it was asked for.
 *
 * @param colors the answer, never partial
 * @param missing names whose key held nothing (or, for a multi-get, not a string)
 * @param unreadable names whose key held a value that is not a readable color for that name
 */
public record StoredColors(List<Color> colors, List<String> missing, List<String> unreadable) {

    /** Whether every key held a readable color: the only case a read costs nothing more. */
    public boolean complete() {
        return missing.isEmpty() && unreadable.isEmpty();
    }

    /** The names whose keys must be written from the palette: the missing, then the unreadable. */
    public List<String> toWrite() {
        List<String> names = new ArrayList<>(missing.size() + unreadable.size());
        names.addAll(missing);
        names.addAll(unreadable);
        return names;
    }
}

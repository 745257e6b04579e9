package dev.colorbench.core.jdbc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.colorbench.core.palette.Color;

import org.springframework.jdbc.core.RowMapper;

/**
 * How the database modules turn rows of {@code colorbench.colors} into the answer: one row is one
 * {@link Color}, and the rows, however many queries they came from and in whatever order, are put
 * back in the order the names were asked, duplicates included.
 *
 * <p>The table's checks keep every row a readable color, so there is no bad data to heal as there
 * is in Redis. A name without a row is not healed either: the database is the modules' system of
 * record, not a copy of the palette, and a row someone deleted is not silently written back. Such a
 * read fails with a 500 problem naming the missing colors in the log, never a shorter list.
 */
public final class ColorRows {

    /** One row of {@code colorbench.colors}, read by column name, its padding included. */
    public static final RowMapper<Color> COLOR = (row, number) -> new Color(row.getString("name"), row.getString("hex"),
            row.getInt("red"), row.getInt("green"), row.getInt("blue"), row.getString("padding"));

    private ColorRows() {
    }

    /**
     * The colors named {@code names}, in that order and as often as each is named, from {@code rows}
     * read for them in any order.
     *
     * @throws MissingColorsException if a name has no row
     */
    public static List<Color> inOrder(List<String> names, List<Color> rows) {
        Map<String, Color> byName = new HashMap<>(rows.size() * 2);
        rows.forEach(color -> byName.put(color.name(), color));
        List<Color> colors = new ArrayList<>(names.size());
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            Color color = byName.get(name);
            if (color != null) {
                colors.add(color);
            }
            else if (!missing.contains(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            throw new MissingColorsException(missing);
        }
        return colors;
    }

    /** The table lacks rows for colors of the palette: a 500, logged with the names, since nothing the caller does will fix it. */
    public static final class MissingColorsException extends IllegalStateException {

        MissingColorsException(List<String> names) {
            super("colorbench.colors has no row for " + String.join(", ", names));
        }
    }
}

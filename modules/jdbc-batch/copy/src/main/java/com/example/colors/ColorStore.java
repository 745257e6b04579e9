package com.example.colors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.SqlArrayValue;
import org.springframework.stereotype.Component;

/**
 * The pattern: one SELECT ... WHERE name = ANY(?), every name as one text[] parameter, the database's MGET. One
 * GET /colors is 1 statement and 1 round trip, whatever the number of names. The statement's text is the same for any
 * number of names (an IN (?, ?, ...) list would be a statement per length), so the driver prepares it once per
 * connection. The database answers in no particular order, so the rows are put back in the order asked.
 */
@Component
class ColorStore {

    private static final String SELECT_ANY = "SELECT name, hex, red, green, blue FROM colorbench.colors WHERE name = ANY(?)";

    private static final RowMapper<Color> COLOR = (row, number) -> new Color(row.getString("name"), row.getString("hex"),
            row.getInt("red"), row.getInt("green"), row.getInt("blue"));

    private final JdbcClient jdbc;

    /** The names the application looks up, in the order GET /colors answers: read once, when it starts. */
    private final List<String> names;

    ColorStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.names = jdbc.sql("SELECT name FROM colorbench.colors ORDER BY name").query(String.class).list();
    }

    /** A name without a row fails the read (a 500), never a shorter list. */
    List<Color> findAll() {
        List<Color> rows = jdbc.sql(SELECT_ANY).param(new SqlArrayValue("text", names.toArray())).query(COLOR).list();
        Map<String, Color> byName = new HashMap<>(rows.size() * 2);
        rows.forEach(color -> byName.put(color.name(), color));
        List<Color> colors = new ArrayList<>(names.size());
        for (String name : names) {
            Color color = byName.get(name);
            if (color == null) {
                throw new IllegalStateException("colorbench.colors has no row for " + name);
            }
            colors.add(color);
        }
        return colors;
    }
}

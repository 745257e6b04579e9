package com.example.colors;

import java.util.List;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The pattern: one SELECT ... WHERE name = ? per color, one after another, as a repository's findByName called in a
 * loop would. One GET /colors is 148 statements and 148 round trips, each waiting for the one before, and 148 loans of
 * a connection from the pool, since no transaction holds one. Each is a primary-key lookup that the driver prepares on
 * the server after its fifth use on a connection: what the loop pays is the exchanges, not PostgreSQL's work.
 */
@Component
class ColorStore {

    private static final String SELECT_ONE = "SELECT name, hex, red, green, blue FROM colorbench.colors WHERE name = ?";

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
        return names.stream()
                .map(name -> jdbc.sql(SELECT_ONE).param(name).query(COLOR).optional()
                        .orElseThrow(() -> new IllegalStateException("colorbench.colors has no row for " + name)))
                .toList();
    }
}

package dev.colorbench.jdbcloop;

import java.util.List;

import dev.colorbench.core.jdbc.ColorRows;
import dev.colorbench.core.jdbc.ColorSchema;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.web.ColorStore;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * One {@code SELECT ... WHERE name = ?} per name, one after another: the database twin of
 * cacheable-loop, and the shape of a repository's {@code findByName} called in a loop. One
 * {@code GET /colors} costs <b>148 queries</b>, one per color, and as many round trips, each
 * waiting for the one before; a subset costs one query per name asked, duplicates included.
 *
 * <p>Each query is a primary-key lookup, parsed once per connection and then run as the driver's
 * server-side prepared statement; what the loop pays is not PostgreSQL's work but 148 exchanges of
 * messages and 148 loans of a connection from the pool, as it runs outside a transaction (no
 * {@code BEGIN} or {@code COMMIT} either). A name without a row fails the read with a 500 instead of
 * shortening it ({@link ColorRows}); a table that is not there (a new or emptied database) is
 * migrated first ({@link ColorSchema#read}).
 */
@Component
class JdbcLoopColorStore implements ColorStore {

    private static final String SELECT_ONE = "SELECT name, hex, red, green, blue, padding FROM colorbench.colors WHERE name = ?";

    private final JdbcClient jdbc;

    private final ColorSchema schema;

    JdbcLoopColorStore(JdbcClient jdbc, ColorSchema schema) {
        this.jdbc = jdbc;
        this.schema = schema;
    }

    @Override
    public List<Color> findAll() {
        return findByNames(Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        return schema.read(() -> ColorRows.inOrder(names,
                names.stream().flatMap(name -> jdbc.sql(SELECT_ONE).param(name).query(ColorRows.COLOR).optional().stream()).toList()));
    }
}

package dev.colorbench.jdbcbatch;

import java.util.List;

import dev.colorbench.core.jdbc.ColorRows;
import dev.colorbench.core.jdbc.ColorSchema;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.web.ColorStore;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.SqlArrayValue;
import org.springframework.stereotype.Component;

/**
 * One {@code SELECT ... WHERE name = ANY(?)} with every name asked as one {@code text[]}
 * parameter: the database twin of an MGET. One {@code GET /colors} costs <b>1 query</b> and one
 * round trip, whatever the number of names; so does any subset. The statement's text is the same
 * for any number of names (an {@code IN (?, ?, ...)} list would be a statement per length), so the
 * driver prepares it once per connection.
 *
 * <p>The database answers each distinct name once and in no particular order; the rows are put back
 * in the order asked, duplicates included, by {@link ColorRows}, so a name is sent once however
 * often it is asked. A name without a row fails the read with a 500 instead of shortening it; a
 * table that is not there (a new or emptied database) is migrated first ({@link ColorSchema#read}).
 */
@Component
class JdbcBatchColorStore implements ColorStore {

    private static final String SELECT_ANY = "SELECT name, hex, red, green, blue, padding FROM colorbench.colors WHERE name = ANY(?)";

    private final JdbcClient jdbc;

    private final ColorSchema schema;

    JdbcBatchColorStore(JdbcClient jdbc, ColorSchema schema) {
        this.jdbc = jdbc;
        this.schema = schema;
    }

    @Override
    public List<Color> findAll() {
        return findByNames(Palette.names());
    }

    @Override
    public List<Color> findByNames(List<String> names) {
        Object[] distinct = names.stream().distinct().toArray();
        return schema.read(() -> ColorRows.inOrder(names,
                jdbc.sql(SELECT_ANY).param(new SqlArrayValue("text", distinct)).query(ColorRows.COLOR).list()));
    }
}

package dev.colorbench.core.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.util.zip.CRC32;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;

import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Version 2 of {@link ColorSchema}: the 148 rows of {@code colorbench.colors}, written from the
 * {@link Palette} itself, so the palette stays the one source of truth instead of being copied into
 * 148 lines of SQL. One batch of inserts, in the migration's transaction.
 *
 * <p>Its checksum is the palette's canonical JSON without padding: should the palette ever change,
 * Flyway's validation reports this migration as changed instead of leaving rows that silently differ
 * from it. (A Java migration has no checksum unless it gives one.) The padding is not this
 * migration's: the column comes later, and {@link PaddingMigration} fills it.
 */
final class PaletteMigration implements JavaMigration {

    private static final String INSERT = "INSERT INTO " + ColorSchema.TABLE + " (name, hex, red, green, blue) VALUES (?, ?, ?, ?, ?)";

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("2");
    }

    @Override
    public String getDescription() {
        return "palette";
    }

    @Override
    public Integer getChecksum() {
        CRC32 crc = new CRC32();
        crc.update(ColorJson.of(Palette.all().stream().map(color -> color.withPadding(null)).toList()).getBytes(StandardCharsets.UTF_8));
        return (int) crc.getValue();
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws Exception {
        try (PreparedStatement insert = context.getConnection().prepareStatement(INSERT)) {
            for (Color color : Palette.all()) {
                insert.setString(1, color.name());
                insert.setString(2, color.hex());
                insert.setInt(3, color.red());
                insert.setInt(4, color.green());
                insert.setInt(5, color.blue());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }
}

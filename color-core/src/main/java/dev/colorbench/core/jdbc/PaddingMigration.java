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
 * A repeatable migration of {@link ColorSchema}: each row's {@code padding} as the {@link Palette}
 * pads its color ({@code colorbench.palette.value-bytes}). Its checksum is the palette's canonical
 * JSON, padding included, so Flyway runs it again whenever the padding asked for changes, and never
 * otherwise. Unpadded, it clears any padding left from a padded run with one statement; padded, it
 * sets every row's padding in one batch. Only the padding column is written.
 */
final class PaddingMigration implements JavaMigration {

    private static final String CLEAR = "UPDATE " + ColorSchema.TABLE + " SET padding = NULL WHERE padding IS NOT NULL";

    private static final String SET = "UPDATE " + ColorSchema.TABLE + " SET padding = ? WHERE name = ?";

    @Override
    public MigrationVersion getVersion() {
        return null;
    }

    @Override
    public String getDescription() {
        return "palette padding";
    }

    @Override
    public Integer getChecksum() {
        CRC32 crc = new CRC32();
        crc.update(ColorJson.palette().getBytes(StandardCharsets.UTF_8));
        return (int) crc.getValue();
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws Exception {
        if (Palette.valueBytes().isEmpty()) {
            try (PreparedStatement clear = context.getConnection().prepareStatement(CLEAR)) {
                clear.executeUpdate();
            }
            return;
        }
        try (PreparedStatement set = context.getConnection().prepareStatement(SET)) {
            for (Color color : Palette.all()) {
                set.setString(1, color.padding());
                set.setString(2, color.name());
                set.addBatch();
            }
            set.executeBatch();
        }
    }
}

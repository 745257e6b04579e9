-- A color's padding, the lower-case letters that make its JSON as large as colorbench.palette.value-bytes asks.
-- Null unless that property is set: the rows of the default palette have none. The rows get theirs from the
-- palette itself, in a repeatable migration (dev.colorbench.core.jdbc.PaddingMigration) that runs again when
-- the padding changes.
ALTER TABLE colorbench.colors ADD COLUMN padding text CHECK (padding ~ '^[a-z]*$');

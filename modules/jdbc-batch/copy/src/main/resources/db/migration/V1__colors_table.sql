-- The palette as a table, in the application's own schema. One row per CSS named color, found by its primary key. The
-- checks hold every row to what GET /colors answers: a lower-case name, a hex of '#' and six lower-case hex digits,
-- and red, green and blue that are that hex.
CREATE TABLE colorbench.colors (
    name  text     PRIMARY KEY CHECK (name ~ '^[a-z]{1,32}$'),
    hex   text     NOT NULL CHECK (hex ~ '^#[0-9a-f]{6}$'),
    red   smallint NOT NULL CHECK (red BETWEEN 0 AND 255),
    green smallint NOT NULL CHECK (green BETWEEN 0 AND 255),
    blue  smallint NOT NULL CHECK (blue BETWEEN 0 AND 255),
    CHECK (hex = '#' || lpad(to_hex(red::int), 2, '0') || lpad(to_hex(green::int), 2, '0') || lpad(to_hex(blue::int), 2, '0'))
);

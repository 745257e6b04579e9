/**
 * The database modules' schema {@code colorbench} in PostgreSQL: the table {@code colors}, created and
 * filled from the palette by Flyway migrations, and its rows turned back into colors in the order
 * asked. It tells a database outage (a 503) from a failure retrying will not fix (a 500), and lets a
 * module start without its database.
 */
package dev.colorbench.core.jdbc;

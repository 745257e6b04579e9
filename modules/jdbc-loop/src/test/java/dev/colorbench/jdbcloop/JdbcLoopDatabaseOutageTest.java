package dev.colorbench.jdbcloop;

import dev.colorbench.testkit.DatabaseOutageContractTest;

class JdbcLoopDatabaseOutageTest extends DatabaseOutageContractTest {
}

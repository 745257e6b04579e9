package dev.colorbench.jdbcbatch;

import dev.colorbench.testkit.DatabaseOutageContractTest;

class JdbcBatchDatabaseOutageTest extends DatabaseOutageContractTest {
}

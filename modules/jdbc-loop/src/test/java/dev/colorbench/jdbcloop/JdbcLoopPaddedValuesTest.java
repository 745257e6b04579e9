package dev.colorbench.jdbcloop;

import dev.colorbench.testkit.PaddedValuesContractTest;

class JdbcLoopPaddedValuesTest extends PaddedValuesContractTest {
}

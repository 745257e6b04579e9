package dev.colorbench.jdbcbatch;

import dev.colorbench.testkit.PaddedValuesContractTest;

class JdbcBatchPaddedValuesTest extends PaddedValuesContractTest {
}

package dev.colorbench.hashrepository;

import dev.colorbench.testkit.PaddedValuesContractTest;

class RedisHashRepositoryPaddedValuesTest extends PaddedValuesContractTest {
}

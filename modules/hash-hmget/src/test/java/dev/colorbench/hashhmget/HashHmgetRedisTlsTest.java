package dev.colorbench.hashhmget;

import dev.colorbench.testkit.RedisTlsContractTest;

class HashHmgetRedisTlsTest extends RedisTlsContractTest {
}

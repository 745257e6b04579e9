package dev.colorbench.reactivemget;

import dev.colorbench.testkit.RedisTlsContractTest;

class ReactiveMgetRedisTlsTest extends RedisTlsContractTest {
}

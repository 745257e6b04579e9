package dev.colorbench.reactivemget;

import dev.colorbench.core.RedisTlsContractTest;

class ReactiveMgetRedisTlsTest extends RedisTlsContractTest {
}

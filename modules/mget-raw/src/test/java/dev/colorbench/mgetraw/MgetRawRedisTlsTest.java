package dev.colorbench.mgetraw;

import dev.colorbench.testkit.RedisTlsContractTest;

class MgetRawRedisTlsTest extends RedisTlsContractTest {
}

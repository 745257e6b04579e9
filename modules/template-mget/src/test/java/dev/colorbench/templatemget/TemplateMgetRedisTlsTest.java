package dev.colorbench.templatemget;

import dev.colorbench.testkit.RedisTlsContractTest;

class TemplateMgetRedisTlsTest extends RedisTlsContractTest {
}

package dev.colorbench.templatemget;

import dev.colorbench.core.RedisTlsContractTest;

class TemplateMgetRedisTlsTest extends RedisTlsContractTest {
}

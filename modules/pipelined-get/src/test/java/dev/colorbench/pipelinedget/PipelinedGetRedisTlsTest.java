package dev.colorbench.pipelinedget;

import dev.colorbench.testkit.RedisTlsContractTest;

class PipelinedGetRedisTlsTest extends RedisTlsContractTest {
}

package dev.colorbench.pipelinedget;

import dev.colorbench.testkit.PaddedValuesContractTest;

class PipelinedGetPaddedValuesTest extends PaddedValuesContractTest {
}

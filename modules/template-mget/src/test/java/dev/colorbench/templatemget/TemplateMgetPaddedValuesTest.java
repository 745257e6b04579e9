package dev.colorbench.templatemget;

import dev.colorbench.testkit.PaddedValuesContractTest;

class TemplateMgetPaddedValuesTest extends PaddedValuesContractTest {
}

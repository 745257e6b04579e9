package dev.colorbench.mgetraw;

import dev.colorbench.testkit.RawJsonStoredDataContractTest;

class MgetRawStoredDataTest extends RawJsonStoredDataContractTest {
}

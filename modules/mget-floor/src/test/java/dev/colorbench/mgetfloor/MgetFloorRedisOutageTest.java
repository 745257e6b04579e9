package dev.colorbench.mgetfloor;

import dev.colorbench.testkit.RedisOutageContractTest;

class MgetFloorRedisOutageTest extends RedisOutageContractTest {
}

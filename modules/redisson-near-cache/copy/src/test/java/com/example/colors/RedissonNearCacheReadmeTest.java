package com.example.colors;

import dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest;

class RedissonNearCacheReadmeTest extends ReadmeQuotesTheCopyTest {
}

package com.example.colors;

import dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest;

class CacheableNearCacheReadmeTest extends ReadmeQuotesTheCopyTest {
}

package com.example.colors;

import dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest;

class NearCacheReadmeTest extends ReadmeQuotesTheCopyTest {
}

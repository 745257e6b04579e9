package com.example.colors;

import dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest;

class CacheableAsyncReadmeTest extends ReadmeQuotesTheCopyTest {
}

package com.example.colors;

import dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest;

class CacheableLoopReadmeTest extends ReadmeQuotesTheCopyTest {
}

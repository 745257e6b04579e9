package com.example.colors;

import dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest;

class RedisHashRepositoryReadmeTest extends ReadmeQuotesTheCopyTest {
}

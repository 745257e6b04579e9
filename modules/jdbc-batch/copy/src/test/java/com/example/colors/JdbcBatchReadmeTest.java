package com.example.colors;

import dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest;

class JdbcBatchReadmeTest extends ReadmeQuotesTheCopyTest {
}

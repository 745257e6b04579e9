package com.example.colors;

import dev.colorbench.testkit.copy.CopyDatabaseOutageTest;

class JdbcBatchCopyOutageTest extends CopyDatabaseOutageTest {
}

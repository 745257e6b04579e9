package com.example.colors;

import dev.colorbench.testkit.copy.CopyDatabaseOutageTest;

class JdbcLoopCopyOutageTest extends CopyDatabaseOutageTest {
}

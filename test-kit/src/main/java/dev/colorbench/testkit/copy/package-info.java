/**
 * The checks of a pattern's standalone copy: the application a module's README shows, built as its own Spring Boot
 * project without color-core. {@link dev.colorbench.testkit.copy.ReadmeQuotesTheCopyTest} ties the README's code
 * blocks to the copy's files; {@link dev.colorbench.testkit.copy.CopyContractTest},
 * {@link dev.colorbench.testkit.copy.CopyRedisOutageTest} and {@link dev.colorbench.testkit.copy.CopyDatabaseOutageTest}
 * check what the copy promises about reading its store. Nothing here touches color-core, so that a copy's tests load
 * none of it (docs/adding-a-pattern.md).
 */
package dev.colorbench.testkit.copy;
